"""Seats changing hands between rounds (`bot.tables.seats`): points stay with who scored
them (play-test: a newcomer taking a bot's seat showed, and could win on, the bot's points)."""

from bot.packages.game.table_message import results_lines
from bot.tables import seats
from bot.tables.table import Table
from engine import Game, Phase, Rules
from engine.events import GameOver
from tests.bot.test_service import ALICE, BOB, CAROL, DAVE, ERIN, lobby, play_round, service
from tests.engine.test_off_table import play_out


def _proletario(humans: int) -> tuple[Table, Game]:
    rules = Rules.preset("proletario")
    table = Table(id=7, channel_id=1, guild_id=1, host_id=100, locale="en", rules=rules)
    for n in range(humans):
        table.seats.append(table.new_player(100 + n, f"p{n}"))
    while len(table.seats) < 4:
        seats.seat_bot(table)
    game = Game.new(rules, 4, seed=5, bots=[s for s, p in enumerate(table.seats) if p.is_bot])
    table.game = game
    play_out(game)
    return table, game


def test_a_newcomer_takes_a_bots_seat_and_rank_but_not_its_points() -> None:
    table, game = _proletario(humans=2)
    eve = table.new_player(200, "eve")
    table.queue.append(eve)
    assert game.ranking is not None
    bot_seats = [s for s in game.ranking if table.seats[s].is_bot]
    taken = bot_seats[-1]  # the lowest-ranked bot gives way first
    seats.seat_waiting_players(table, game)
    assert table.seats[taken] is eve and game.points[taken] == 0
    assert not table.queue


def test_who_takes_the_last_places_bot_seat_keeps_it() -> None:
    """Three wait, two bots seated, one of them last: the first in the queue took the last
    bot's seat, then, no bot being left, gave it up as the last place to the third and went
    to the end of the queue, with no round played and 0 points « waiting » in the game."""
    table, game = _proletario(humans=2)
    assert game.ranking is not None
    last = game.ranking[-1]
    assert table.seats[last].is_bot  # (seed 5: a bot finished last)
    waiting = [table.new_player(200 + n, f"q{n}") for n in range(3)]
    table.queue.extend(waiting)
    seats.seat_waiting_players(table, game)
    assert table.seats[last] is waiting[0] and table.queue == [waiting[2]]
    assert game.off_table == {}


def test_the_last_place_waits_with_their_points_and_brings_them_back() -> None:
    table, game = _proletario(humans=4)
    eve = table.new_player(200, "eve")
    table.queue.append(eve)
    points_before = list(game.points)
    for _ in range(2):  # until the last place has scored something to carry
        assert game.ranking is not None
        last = game.ranking[-1]
        leaving = table.seats[last]
        scored = game.points[last]
        seats.seat_waiting_players(table, game)
        assert table.queue == [leaving] and game.off_table == {leaving.key: scored}
        assert game.points[last] == 0  # eve, then whoever sat there next, brought nothing
        game.next_round()
        play_out(game)
    assert points_before != game.points
    back = table.queue[0]
    carried = game.total(back.key)
    again = Table.from_dict(table.to_dict())
    assert again.game is not None and again.game.off_table == game.off_table
    assert game.ranking is not None
    last = game.ranking[-1]
    seats.seat_waiting_players(table, game)
    assert table.seats[last] is back and game.points[last] == carried
    assert back.key not in game.off_table


def test_the_last_place_on_autopilot_takes_it_off_the_table_with_them() -> None:
    """An absent Proletario, on autopilot after their timeouts (RULES §10), gives up the
    seat: eve sits down to play it herself, not to watch the autopilot play it."""
    table, game = _proletario(humans=4)
    assert game.ranking is not None
    last = game.ranking[-1]
    game.autopilot.add(last)
    table.queue.append(eve := table.new_player(200, "eve"))
    seats.seat_waiting_players(table, game)
    assert table.seats[last] is eve and not game.automated(last)


def test_a_snapshot_from_before_keeps_the_points_of_who_waits() -> None:
    """Snapshots taken while the queue's players kept their points themselves (`points`
    in the queue): restored, the engine keeps them for those players."""
    table, game = _proletario(humans=4)
    table.queue.append(table.new_player(200, "eve"))
    seats.seat_waiting_players(table, game)
    data = table.to_dict()
    stored = data["game"]
    assert stored is not None
    del stored["off_table"]
    data["queue"][0]["points"] = 4
    again = Table.from_dict(data)
    assert again.game is not None and again.game.off_table == {table.queue[0].key: 4}


def test_a_game_over_in_a_snapshot_from_before_keeps_its_winners_standings() -> None:
    """A game over in a snapshot from before: it was won among the seats alone, and the
    queue's points restored into it placed a waiting player above its winners, and told
    them in their hand they had come first."""
    table, game = _proletario(humans=4)
    table.queue.append(table.new_player(200, "eve"))
    seats.seat_waiting_players(table, game)
    game.off_table.clear()  # as the engine then had it
    game.stop()
    assert game.phase is Phase.GAME_OVER and game.winners
    data = table.to_dict()
    stored = data["game"]
    assert stored is not None
    del stored["off_table"]
    data["queue"][0]["points"] = 99
    again = Table.from_dict(data)
    assert again.game is not None and again.game.off_table == {}
    assert [who for who, _ in again.game.standings()] == [who for who, _ in game.standings()]


def test_a_bot_taking_a_leavers_seat_between_rounds_starts_at_nothing() -> None:
    table, game = _proletario(humans=4)
    assert game.ranking is not None
    winner = game.ranking[0]
    assert game.points[winner] > 0
    seats.free_seat(table, game, winner)
    assert table.seats[winner].is_bot and game.points[winner] == 0


async def test_a_rounds_results_name_the_stand_in_who_played_it() -> None:
    """Play-test (stop 38): at proletario a leaver's seat read « 🤖 u4 » all round, and the
    round's results named the fresh bot that takes the seat as the round ends (« 🤖 Bot 1 »):
    the results name who held each seat as the round ended, and survive a restart."""
    svc, clock = service()
    table = await lobby(svc, "proletario", ALICE, BOB, CAROL, DAVE)
    await svc.games.start(table, ALICE)
    seat = table.seat_of(DAVE)
    assert seat is not None
    await svc.leave(table, DAVE)
    await play_round(svc, clock, table)
    game = table.game
    assert game is not None and game.phase is Phase.ROUND_OVER
    assert table.seats[seat].name != "u4"  # a fresh bot holds the seat from now on
    text = "\n".join(results_lines("en", table, game))
    assert "🤖 u4" in text and table.seats[seat].name not in text
    again = Table.from_dict(table.to_dict())
    assert [p.name for p in again.result_seats] == [p.name for p in table.result_seats]
    await svc.games.next_round(table, ALICE)
    assert table.result_seats == []


async def test_a_player_leaving_the_queue_mid_game_takes_their_points_out_of_it() -> None:
    """The last place waits in the queue with their points (`Game.step_off`); leaving the
    queue while the game goes on, they stop counting, as a seated leaver's points do."""
    svc, clock = service()
    table = await lobby(svc, "proletario", ALICE, BOB, CAROL, DAVE)
    await svc.games.start(table, ALICE)
    await svc.join(table, ERIN, "u5", "en")
    await play_round(svc, clock, table)
    game = table.game
    assert game is not None and game.ranking is not None
    last = table.seats[game.ranking[-1]]
    assert last.user_id is not None
    await svc.games.next_round(table, ALICE)
    assert table.queue == [last] and last.key in game.off_table
    await svc.leave(table, last.user_id)
    assert not table.queue and game.off_table == {}
    assert all(who != last.key for who, _ in game.standings())


async def test_a_game_end_still_to_store_names_its_waiting_winner_after_a_restart() -> None:
    """A game's end waits in the table's outbox (the database down) as the process stops:
    restored from the snapshot, it still names who waited in the queue, or the winner
    waiting there (`Game.step_off`) would be stored as no one's win once it is back."""
    svc, clock = service()
    table = await lobby(svc, "proletario", ALICE, BOB, CAROL, DAVE)
    await svc.games.start(table, ALICE)
    await svc.join(table, ERIN, "u5", "en")
    await play_round(svc, clock, table)
    await svc.games.next_round(table, ALICE)
    game = table.game
    assert game is not None
    (waiting,) = table.queue
    game.off_table[waiting.key] = 99  # the best total
    await svc.games.end(table, ALICE)
    assert game.winners == (waiting.key,)
    again = Table.from_dict(table.to_dict())
    ends = [p for p in again.unstored if isinstance(p.result, GameOver)]
    assert [[p.user_id for p in end.start.waiting] for end in ends] == [[waiting.user_id]]
