import asyncio

import pytest

from bot.i18n import t
from bot.packages.game.table_message import player_lines
from bot.tables import service as service_module
from bot.tables import turnover
from bot.tables.clock import ManualClock
from bot.tables.service import TableError, TableService
from bot.tables.table import Table
from bot.tables.turnover import LeaveOutcome
from engine import Game, GreedyPlayer, Phase, Rules
from engine.bots import HardBot
from engine.bots.rollout import Style
from tests.fresh import fresh

from .e2e import TIMED_OUT

ALICE, BOB, CAROL, DAVE, ERIN = 1, 2, 3, 4, 5


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def phase(game: Game) -> Phase:
    """The game's phase now: an earlier `assert game.phase is ...` would otherwise narrow
    later reads for the type checker, which does not know that awaits change it."""
    return game.phase


def service(pause: float = 0.0) -> tuple[TableService, ManualClock]:
    clock = ManualClock()
    return TableService(clock, bot_pause=pause, seed=1), clock


async def lobby(svc: TableService, preset: str, *users: int) -> Table:
    table = await svc.create(100, 1, users[0], f"u{users[0]}", "en", preset)
    for user in users[1:]:
        await svc.join(table, user, f"u{user}", "en")
    return table


async def act_for_humans(svc: TableService, table: Table) -> bool:
    """One greedy move for any human who may act; False when no human can."""
    game = table.game
    assert game is not None
    for seat, player in enumerate(table.seats):
        if player.user_id is None or game.automated(seat):
            continue
        due = game.exchange_due(seat)
        if due is not None and due.ready:
            await svc.moves.give(table, player.user_id, GreedyPlayer().choose(game, seat).cards,
                                 game.version)
            return True
        if game.phase is Phase.PLAY and (game.legal_plays(seat) or game.can_pass(seat)):
            if game.rules.fast and not game.legal_plays(seat) and not game.can_pass(seat):
                continue
            action = GreedyPlayer().choose(game, seat)
            if action.kind == "pass":
                await svc.moves.pass_turn(table, player.user_id, game.version)
            else:
                assert action.option is not None
                await svc.moves.play(table, player.user_id, action.option.cards,
                                     action.option.announce, game.version)
            return True
    return False


async def play_round(svc: TableService, clock: ManualClock, table: Table) -> None:
    for _ in range(2000):
        await settle()
        game = table.game
        if game is None or game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            return
        if not await act_for_humans(svc, table):
            clock.advance(0.5)
    raise AssertionError("round did not finish")


async def test_lobby_checks_explain_themselves() -> None:
    svc, _ = service()
    table = await lobby(svc, "classic", ALICE, BOB)
    with pytest.raises(TableError) as err:
        await svc.create(100, 1, CAROL, "c", "en", "classic")
    assert err.value.key == "err.table_exists"
    with pytest.raises(TableError) as err:
        await svc.join(table, BOB, "b", "en")
    assert err.value.key == "err.already_seated"
    with pytest.raises(TableError) as err:
        await svc.games.start(table, BOB)  # seated: told when a silent host's role is theirs
    assert err.value.key == "err.not_host_later"
    with pytest.raises(TableError) as err:
        await svc.games.start(table, ALICE)
    assert (err.value.key, err.value.params) == ("err.min_players", {"min": 3, "count": 2})
    await svc.add_bot(table, ALICE)
    await svc.games.start(table, ALICE)
    assert await svc.join(table, CAROL, "c", "en") == "listed"  # for the next game
    with pytest.raises(TableError) as err:
        await svc.set_rules(table, ALICE, Rules.preset("classic", revolution=False))
    assert err.value.key == "err.settings_locked"


async def test_presi_lobby_grows_one_seat_per_arrival_up_to_six() -> None:
    svc, _ = service()
    table = await lobby(svc, "presi", ALICE)
    assert table.capacity() == 3
    for user in range(2, 7):
        await svc.join(table, user, f"u{user}", "en")
    assert table.capacity() == 6
    with pytest.raises(TableError) as err:
        await svc.join(table, 7, "u7", "en")
    assert err.value.key == "err.table_full_join"  # the host may allow up to 8


async def test_presi_play_against_bots_seats_two_bots_and_starts() -> None:
    svc, _ = service()
    table = await lobby(svc, "presi", ALICE)
    await svc.games.play_against_bots(table, ALICE)
    assert [p.is_bot for p in table.seats] == [False, True, True]
    assert table.game is not None


async def test_host_leaving_passes_the_role_to_the_longest_seated_human() -> None:
    svc, _ = service()
    table = await lobby(svc, "classic", ALICE, BOB, CAROL)
    await svc.leave(table, ALICE)
    assert table.host_id == BOB
    await svc.leave(table, BOB)
    await svc.leave(table, CAROL)
    assert table.closed and svc.registry.in_channel(100) is None


async def test_illegal_and_stale_actions_change_nothing() -> None:
    svc, _ = service()
    table = await lobby(svc, "classic", ALICE, BOB, CAROL)
    await svc.games.start(table, ALICE)
    game = table.game
    assert game is not None and game.to_act is not None
    waiting = next(p.user_id for s, p in enumerate(table.seats) if s != game.to_act)
    assert waiting is not None
    version = game.version
    with pytest.raises(TableError) as err:
        await svc.moves.pass_turn(table, waiting, version)
    assert err.value.key == "engine.not_your_turn"
    actor = table.seats[game.to_act].user_id
    assert actor is not None
    with pytest.raises(TableError) as err:
        await svc.moves.pass_turn(table, actor, version - 1)
    assert err.value.key == "err.stale"
    assert game.version == version


async def test_turn_timer_expires_on_the_clock_and_bots_wait_their_pause() -> None:
    svc, clock = service(pause=2.0)
    table = await lobby(svc, "classic", ALICE)
    await svc.add_bot(table, ALICE)
    await svc.add_bot(table, ALICE)
    await svc.games.start(table, ALICE)
    game = table.game
    assert game is not None
    await settle()
    for _ in range(10):
        if game.to_act == 0:
            break
        before = game.version
        clock.advance(1.9)
        await settle()
        assert game.version == before, "a bot played before its pause"
        clock.advance(0.1)
        await settle()
    assert game.to_act == 0
    deadline = table.timer_deadline
    assert deadline is not None and deadline == pytest.approx(clock.now() + 30, abs=2.1)
    before = game.version
    clock.advance(29.9 - (clock.now() + 30 - deadline))
    await settle()
    assert game.version == before
    clock.advance(0.2)
    await settle()
    assert game.version > before
    assert any(e.key in TIMED_OUT for e in table.log)


async def test_leaving_mid_round_hands_the_seat_to_a_bot_then_frees_it() -> None:
    svc, clock = service()
    table = await lobby(svc, "classic", ALICE, BOB, CAROL, DAVE)
    await svc.games.start(table, ALICE)
    await svc.leave(table, DAVE)
    game = table.game
    assert game is not None and game.automated(3)
    assert any(e.key == "ev.left" for e in table.log)
    await play_round(svc, clock, table)
    assert game.phase is Phase.ROUND_OVER
    assert not game.active[3] and table.seats[3].vacant
    await svc.games.next_round(table, ALICE)
    assert phase(game) is Phase.EXCHANGE
    assert game.hand(3) == ()


async def test_the_history_says_who_made_a_player_go_and_whether_the_bot_stays() -> None:
    """Play-test: a kick read « chloé quitte la partie », and in proletario, where the bot
    keeps the seat, every leave read « a bot finishes the round »."""
    svc, _ = service()
    table = await lobby(svc, "classic", ALICE, BOB, CAROL, DAVE)
    await svc.games.start(table, ALICE)
    await svc.kick(table, ALICE, DAVE, "dave")
    await svc.leave(table, CAROL)  # two left of classic's three: the game stops (play-test 44)
    assert [(e.key, e.params["name"]) for e in table.log if e.key.startswith(("ev.k", "ev.l"))] \
        == [("ev.kicked", table.seats[3].name), ("ev.left_lobby", table.seats[2].name)]
    svc, _ = service()
    table = await lobby(svc, "proletario", ALICE, BOB, CAROL, DAVE)
    await svc.games.start(table, ALICE)
    await svc.kick(table, ALICE, DAVE, "dave")
    await svc.leave(table, CAROL)
    assert [e.key for e in table.log if e.key.startswith(("ev.k", "ev.l"))] \
        == ["ev.kicked_bot", "ev.left_bot"]


async def test_too_few_players_after_a_leave_sends_the_table_back_to_the_lobby() -> None:
    svc, clock = service()
    table = await lobby(svc, "classic", ALICE, BOB, CAROL)
    await svc.games.start(table, ALICE)
    await svc.leave(table, CAROL)
    await play_round(svc, clock, table)
    assert table.game is None
    assert [p.user_id for p in table.seats] == [ALICE, BOB]
    assert table.post_lobby


@pytest.mark.parametrize(("preset", "users", "outcome"), [
    ("classic", (ALICE, BOB, CAROL, DAVE), LeaveOutcome.FREE),
    ("classic", (ALICE, BOB, CAROL), LeaveOutcome.FREE_LOBBY),
    ("proletario", (ALICE, BOB, CAROL, DAVE), LeaveOutcome.BOT),
])
async def test_leaving_between_rounds_does_what_the_prompt_said(
    preset: str, users: tuple[int, ...], outcome: LeaveOutcome
) -> None:
    """Between rounds the seat goes at once, as the outcome the prompt words says: freed, a
    bot's where bots fill tables, or the table back to its lobby when too few are left."""
    svc, clock = service()
    table = await lobby(svc, preset, *users)
    await svc.games.start(table, ALICE)
    await play_round(svc, clock, table)
    game = table.game
    assert game is not None and game.phase is Phase.ROUND_OVER
    leaver = users[-1]
    seat = table.seat_of(leaver)
    assert seat is not None and turnover.leave_outcome(table, leaver) is outcome
    await svc.leave(table, leaver)
    if outcome is LeaveOutcome.FREE_LOBBY:
        assert table.game is None and table.post_lobby
        assert leaver not in [p.user_id for p in table.seats]
        return
    assert table.game is game and table.seats[seat].user_id is None
    assert game.active[seat] is (outcome is LeaveOutcome.BOT)
    assert table.seats[seat].is_bot is (outcome is LeaveOutcome.BOT)


async def test_the_next_game_at_a_table_counts_versions_on_from_the_last() -> None:
    """Hand controls carry the version they were drawn for: a new game starting at 0 again
    would take a menu left from the last game for one of its own."""
    svc, clock = service()
    table = await lobby(svc, "classic", ALICE, BOB, CAROL)
    await svc.games.start(table, ALICE)
    first = table.game
    assert first is not None
    await svc.leave(table, CAROL)
    await play_round(svc, clock, table)
    assert table.game is None and table.next_version == first.version + 1
    assert Table.from_dict(table.to_dict()).next_version == table.next_version
    await svc.join(table, CAROL, "c", "en")
    await svc.games.start(table, ALICE)
    game = fresh(table).game
    assert game is not None and game.round_version == first.version + 1


async def test_a_new_game_starts_with_no_points_of_the_last_one() -> None:
    """The points chart of a game stopped in its first round showed the last game's rounds:
    their totals outlived it, through « Replay » and through « End » and a new start."""
    svc, clock = service()
    table = await lobby(svc, "classic", ALICE, BOB, CAROL)
    await svc.games.start(table, ALICE)
    await play_round(svc, clock, table)
    assert len(table.round_totals) == 1
    await svc.games.end(table, ALICE)  # stopped after its first round: game over
    await svc.games.replay(table, ALICE)
    assert table.round_totals == []
    await play_round(svc, clock, table)
    await svc.games.end(table, ALICE)
    await svc.games.end(table, ALICE)  # from the game over, back to the lobby
    assert table.game is None
    await svc.games.start(table, ALICE)
    assert table.round_totals == []


async def test_a_full_classic_game_with_exchanges_ends_with_winners() -> None:
    svc, clock = service()
    table = await lobby(svc, "classic", ALICE, BOB)
    await svc.add_bot(table, ALICE)
    await svc.add_bot(table, ALICE)
    await svc.set_rules(table, ALICE, table.rules.replace(game_end="rounds:2"))
    await svc.games.start(table, ALICE)
    game = table.game
    assert game is not None
    await play_round(svc, clock, table)
    await svc.games.next_round(table, ALICE)
    assert game.phase is Phase.EXCHANGE
    await play_round(svc, clock, table)
    assert phase(game) is Phase.GAME_OVER and game.winners
    assert len(table.exchange_notes) >= 2


async def test_proletario_fills_with_bots_and_queued_players_take_a_bot_seat() -> None:
    svc, clock = service()
    table = await lobby(svc, "proletario", ALICE, BOB)
    await svc.games.start(table, ALICE)
    assert len(table.seats) == 4 and sum(p.is_bot for p in table.seats) == 2
    assert await svc.join(table, CAROL, "c", "en") == "queued"
    await play_round(svc, clock, table)
    game = table.game
    assert game is not None and game.ranking is not None
    bot_seats = [s for s in game.ranking if table.seats[s].is_bot]
    await svc.games.next_round(table, ALICE)
    assert table.seats[bot_seats[-1]].user_id == CAROL
    assert not game.automated(bot_seats[-1])
    assert table.queue == []


async def test_who_took_a_seat_in_the_last_game_took_nobody_s_in_the_next() -> None:
    """Play-test 16's « · in place of Bot 1 » says, through a round, whose seat someone from
    proletario's queue took at its deal. carol took a bot's seat for the last round of a
    game; back in the lobby and started again, the new game's first round still said she
    sat in place of that bot, a seat of the last game (`Player.took_from`, kept)."""
    svc, clock = service()
    table = await lobby(svc, "proletario", ALICE, BOB)
    await svc.set_rules(table, ALICE, table.rules.replace(game_end="rounds:2"))
    await svc.games.start(table, ALICE)
    assert await svc.join(table, CAROL, "c", "en") == "queued"
    await play_round(svc, clock, table)
    await svc.games.next_round(table, ALICE)
    game = table.game
    assert game is not None
    took = next(p.took_from for p in table.seats if p.user_id == CAROL)
    assert took is not None
    shown = t("en", "table.took_seat_bot", name=f"🤖 {took}", level=t("en", "level.normal"))
    assert shown in "\n".join(player_lines("en", table, game))
    await play_round(svc, clock, table)
    assert phase(game) is Phase.GAME_OVER
    await svc.games.end(table, ALICE)  # from the game over, back to the lobby
    await svc.games.start(table, ALICE)
    game = table.game
    assert game is not None and phase(game) is Phase.PLAY
    assert table.seat_of(CAROL) is not None
    assert "in place of" not in "\n".join(player_lines("en", table, game))


async def test_proletario_autopilot_after_two_timeouts_and_resume() -> None:
    svc, clock = service()
    table = await lobby(svc, "proletario", ALICE)
    await svc.games.start(table, ALICE)
    game = table.game
    assert game is not None
    for _ in range(200):
        await settle()
        if game.automated(0) or game.phase is not Phase.PLAY:
            break
        clock.advance(0.5 if game.to_act != 0 else 15)
    assert game.automated(0)
    await svc.moves.resume(table, ALICE)
    assert not game.automated(0)
    with pytest.raises(TableError) as err:
        await svc.moves.resume(table, ALICE)
    assert err.value.key == "err.not_automated"


async def test_presi_leaver_who_does_not_come_back_cancels_the_game() -> None:
    svc, clock = service(pause=100.0)
    table = await lobby(svc, "presi", ALICE, BOB, CAROL)
    await svc.games.start(table, ALICE)
    await svc.leave(table, BOB)
    assert BOB in table.away
    clock.advance(59)
    await settle()
    assert table.game is not None
    assert await svc.join(table, BOB, "b", "en") == "back"
    await svc.leave(table, BOB)
    clock.advance(60)
    await settle()
    assert fresh(table).game is None
    assert [p.user_id for p in table.seats] == [ALICE, CAROL]


async def test_a_leaver_whose_round_a_bot_finishes_is_refused_again_after_a_restart() -> None:
    """Who left the seat a bot is finishing the round in is part of the stored table: a
    restored table still knows it, which the engine's refusal of their second leave needs."""
    svc, _ = service(pause=100.0)
    table = await lobby(svc, "classic", ALICE, BOB, CAROL, DAVE)
    await svc.games.start(table, ALICE)
    await svc.leave(table, BOB)
    seat = table.left_seat(BOB)
    assert seat is not None and table.seat_of(BOB) is None
    restored = Table.from_dict(table.to_dict())
    assert restored.left_seat(BOB) == seat and restored.left_seat(CAROL) is None
    after_restart, _ = service(pause=100.0)
    after_restart.outages.adopt(restored)
    with pytest.raises(TableError) as err:
        await after_restart.leave(restored, BOB)
    assert err.value.key == "engine.already_left"


async def test_fast_mode_refuses_a_play_composed_on_an_older_trick() -> None:
    svc, _ = service(pause=100.0)
    table = await lobby(svc, "classic", ALICE, BOB, CAROL)
    await svc.set_rules(table, ALICE, table.rules.replace(fast=True))
    await svc.games.start(table, ALICE)
    game = table.game
    assert game is not None
    seen = game.version
    first = game.legal_plays(0)[0]
    await svc.moves.play(table, ALICE, first.cards, first.announce, seen)
    late = game.legal_plays(1)
    assert late
    with pytest.raises(TableError) as err:
        await svc.moves.play(table, BOB, late[-1].cards, late[-1].announce, seen)
    assert err.value.key == "engine.stale"
    assert err.value.params["by"] == 0
    assert set(late[-1].cards) <= set(game.hand(1))


async def test_snapshot_round_trip_keeps_playing_identically() -> None:
    svc, _ = service()
    table = await lobby(svc, "wild7", ALICE, BOB)
    await svc.games.start(table, ALICE)
    copy = Table.from_dict(table.to_dict())
    assert copy.to_dict() == table.to_dict()
    assert copy.game is not None and table.game is not None
    assert copy.game.legal_plays(copy.game.to_act or 0) == table.game.legal_plays(
        table.game.to_act or 0)


async def test_rules_cannot_shrink_below_the_seated_players() -> None:
    svc, _ = service()
    table = await lobby(svc, "classic", ALICE, BOB, CAROL, DAVE)
    with pytest.raises(TableError) as err:
        await svc.set_rules(table, ALICE, table.rules.replace(max_players=3))
    assert (err.value.key, err.value.params) == ("err.too_many_seated", {"count": 4, "max": 3})
    assert table.rules.max_players == 6


async def test_removing_a_bot_needs_the_host_a_bot_and_the_lobby() -> None:
    svc, _ = service()
    table = await lobby(svc, "classic", ALICE, BOB)
    with pytest.raises(TableError) as err:
        await svc.remove_bot(table, ALICE)
    assert err.value.key == "err.no_bot"
    await svc.add_bot(table, ALICE)
    with pytest.raises(TableError) as err:
        await svc.remove_bot(table, BOB)
    assert err.value.key == "err.not_host_later"
    await svc.games.start(table, ALICE)
    with pytest.raises(TableError) as err:
        await svc.remove_bot(table, ALICE)
    assert err.value.key == "err.game_running"
    assert len(table.seats) == 3


async def test_back_in_the_lobby_the_host_keeps_the_bots_they_seated() -> None:
    svc, clock = service()
    table = await lobby(svc, "classic", ALICE, BOB)
    await svc.add_bot(table, ALICE)
    await svc.games.start(table, ALICE)
    await svc.leave(table, BOB)  # BOB's seat is played for him, then freed: too few players
    await play_round(svc, clock, table)
    assert table.game is None
    assert [(p.user_id, p.name) for p in table.seats] == [(ALICE, "u1"), (None, "Bot 1")]


async def test_a_bot_that_took_a_leavers_seat_this_round_is_no_answerer_for_hard() -> None:
    """The normal level never passes while it can play, so hard reads a normal bot's pass
    as « no play at all ». A leaver's earlier passes this round were a person's: hard still
    models the seat by its new bot's level, but reads its passes as anyone's until the
    round ends (engine.bots.make_bot's ``taken_over``)."""
    svc, clock = service()
    table = await lobby(svc, "proletario", ALICE, BOB, CAROL)
    await svc.add_bot(table, ALICE, "hard")
    await svc.games.start(table, ALICE)
    game = table.game
    assert game is not None
    hard = next(s for s, p in enumerate(table.seats) if p.is_bot and p.level == "hard")
    carol = next(s for s, p in enumerate(table.seats) if p.user_id == CAROL)
    await svc.leave(table, CAROL)
    bot = svc.bot(table, game, hard)
    assert isinstance(bot, HardBot)
    assert bot.known[carol] is Style.TACTICS and carol not in bot.answerers
    await play_round(svc, clock, table)
    await svc.games.next_round(table, ALICE)
    bot = svc.bot(table, game, hard)
    assert isinstance(bot, HardBot) and carol in bot.answerers  # a new bot, from the start


async def test_bots_that_filled_the_table_or_replaced_a_leaver_are_not_kept() -> None:
    svc, clock = service()
    table = await lobby(svc, "proletario", ALICE, BOB, CAROL)
    await svc.add_bot(table, ALICE)
    await svc.games.start(table, ALICE)
    await svc.leave(table, CAROL)
    await play_round(svc, clock, table)
    game = table.game
    assert game is not None and sum(p.is_bot for p in table.seats) == 2
    await svc.games.end(table, ALICE)
    assert game.phase is Phase.GAME_OVER
    await svc.games.end(table, ALICE)
    assert table.game is None
    assert sorted((p.user_id or 0, p.name) for p in table.seats) == [
        (0, "Bot 1"), (ALICE, "u1"), (BOB, "u2")]


async def test_waiting_players_come_before_the_hosts_bots_when_seats_run_short() -> None:
    svc, _ = service()
    table = await lobby(svc, "proletario", ALICE)
    for _ in range(3):
        await svc.add_bot(table, ALICE)
    await svc.games.start(table, ALICE)
    assert await svc.join(table, BOB, "u2", "en") == "queued"
    await svc.games.end(table, ALICE)
    await svc.games.end(table, ALICE)
    assert [p.name for p in table.seats] == ["u1", "Bot 1", "Bot 2", "u2"]
    assert Table.from_dict(table.to_dict()).seats[1].by_host


async def test_each_round_starts_with_a_fresh_log() -> None:
    svc, clock = service()
    table = await lobby(svc, "classic", ALICE, BOB)
    await svc.add_bot(table, ALICE)
    await svc.games.start(table, ALICE)
    await play_round(svc, clock, table)
    assert any(e.key == "ev.played" for e in table.log)
    await svc.games.next_round(table, ALICE)
    assert not any(e.key == "ev.played" for e in table.log)


async def test_a_hard_bot_is_told_the_other_bots_levels_and_not_the_people() -> None:
    """The lobby shows every bot with its level: hard models those seats by it. People,
    even on autopilot, are not a level."""
    svc, _ = service()
    table = await lobby(svc, "classic", ALICE, BOB)
    await svc.add_bot(table, ALICE, "hard")
    await svc.add_bot(table, ALICE, "normal")
    await svc.games.start(table, ALICE)
    assert table.game is not None
    hard = next(s for s, p in enumerate(table.seats) if p.is_bot and p.level == "hard")
    normal = next(s for s, p in enumerate(table.seats) if p.is_bot and p.level == "normal")
    bot = svc.bot(table, table.game, hard)
    assert isinstance(bot, HardBot)
    assert bot.known == {normal: Style.TACTICS}


async def test_the_old_table_message_keeps_whom_its_text_names_past_the_next_round() -> None:
    """dave leaves mid-round: the history and his seat name him. The next round clears
    both, but the old table message keeps its text, to be edited in once an archived
    thread wakes: that text still names him, so his erasure must still take it."""
    svc, clock = service()
    table = await lobby(svc, "classic", ALICE, BOB, CAROL, DAVE)
    await svc.games.start(table, ALICE)
    await svc.leave(table, DAVE)
    assert [e.people for e in table.log if e.key == "ev.left"] == [(DAVE,)]
    await play_round(svc, clock, table)
    table.keep_retired("the round's results, dave's seat among them")
    await svc.games.next_round(table, ALICE)
    assert not any(e.people for e in table.log) and DAVE in table.people()
    restored = Table.from_dict(table.to_dict())
    assert restored.retired_people == table.retired_people and DAVE in restored.people()
    table.keep_retired(None)
    assert DAVE not in table.people()


async def test_a_locale_heard_again_looks_through_no_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command and click says its locale (`TableService.heard`), nearly always the
    one before. Finding the player's tables looks through every open table: at 300 tables
    on the load benchmark that was 0.3 ms a click, 5 % of the process. The same locale
    again skips it; a new one still reaches every hand, on every server (the locale is the
    user's, not the server's)."""
    svc, _ = service()
    here = await lobby(svc, "classic", ALICE, BOB)
    there = await svc.create(101, 1, ALICE, "u1", "en", "classic")
    elsewhere = await svc.create(102, 2, ALICE, "u1", "en", "classic")  # another server
    tables = (here, there, elsewhere)
    svc.heard(ALICE, "fr", "fr")
    assert [t.player(ALICE).locale for t in tables] == ["fr"] * 3  # type: ignore[union-attr]
    looked: list[int] = []
    of_user = svc.registry.of_user

    def counted(user_id: int) -> list[Table]:
        looked.append(user_id)
        return of_user(user_id)

    monkeypatch.setattr(svc.registry, "of_user", counted)
    svc.heard(ALICE, "fr", "fr")
    assert not looked
    svc.heard(ALICE, "en-US", "en-US")
    assert looked == [ALICE]
    assert [t.player(ALICE).locale for t in tables] == ["en-US"] * 3  # type: ignore[union-attr]
    monkeypatch.setattr(service_module, "HEARD_KEPT", 2)  # full: all forgotten
    svc.heard(BOB, "en", "en")
    svc.heard(CAROL, "en", "en")
    svc.heard(ALICE, "en-US", "en-US")
    assert looked == [ALICE, BOB, CAROL, ALICE]
