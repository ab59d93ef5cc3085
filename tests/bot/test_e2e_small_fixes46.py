"""End-to-end: small fixes (docs/bot.md, « Small fixes (stop 46) »), in French and in
English where the wording changes: the hand's exchange lines name bots as the table message
names them; a language switch reaches a hand open on another server; the table says how to
reopen a hand closed by mistake; a pick in a hand older than its token is told it was not
taken; a revolution names the jokers and the card that wins alone, and the rules page
follows the flip; a snapshot without the penalty's card does not say it was a 2."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import join_names, t
from bot.i18n.cards import rank_words, top_single_words
from bot.i18n.typography import french
from bot.packages.game.hand import hand_screen
from bot.packages.game.lines import entry_text, place, role_name
from bot.packages.game.table_message import table_screen
from bot.tables.table import Table
from engine import Card, Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    create_table,
    let_timers_play,
    message,
    play_until,
    tick,
    two_humans_against_a_bot,
)
from .test_e2e_playtest8_servers import tables_in_two_servers
from .test_e2e_playtest17 import dealt, pass_turn, play

LOCALES = ["fr", "en-US"]


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_hand_s_exchange_lines_name_bots_as_the_table_names_them(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """At proletario against hard bots, sam took a bot's seat from the queue at round 2's
    deal. The table read « **sam** · … · à la place de 🤖 Bot 2 (niveau difficile) », yet
    his hand's exchange line read « Tu prends la place de **Bot 2**, **Secrétaire** … : tu
    dois ta meilleure carte à **Bot 1** (VP) », the bots bare, as in marie's and in the
    notes of what was given. Each names the bot marked, its level said once beside it."""
    marie = Player(fake.add_user("marie", locale=locale))
    sam = Player(fake.add_user("sam", locale=locale))
    table = await create_table(president, marie.user, "proletario")
    await president.service.set_options(table, marie.user.id, bot_level="hard")
    for _ in range(3):
        await marie.user.click(message(marie.user, table.lobby_message_id),
                               cid(table, "addbot"))
    await marie.user.click(message(marie.user, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    await sam.user.click(message(sam.user, table.table_message_id), cid(table, "join"))
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert game.phase is Phase.EXCHANGE
    await marie.open_hand(president)
    await sam.open_hand(president)
    seat = table.seat_of(sam.user.id)
    assert seat is not None
    replaced = table.seats[seat].took_from
    assert replaced is not None and replaced.startswith("Bot ")
    # Round 1's VP, whom sam owes his best card: a bot, whichever the bots' play made it.
    ranking = game.ranking
    assert ranking is not None
    partner = table.name(ranking[1])
    assert partner.startswith("Bot ") and partner != replaced
    hard = t(locale, "level.hard")
    lines = sam.hand.content.split("\n")
    why = next(line for line in lines if line.startswith("🎖️"))
    assert why.startswith("🎖️ " + t(locale, "hand.exchange_role_taken_bot", name=f"🤖 {replaced}",
                                     level=hard, role=role_name(locale, table, "VL")))
    if locale == "fr":
        assert french(f"🎖️ Tu prends la place de **🤖 {replaced}** (niveau difficile), "
                      "**Secrétaire** à la manche précédente : tu dois ta meilleure carte à "
                      f"**🤖 {partner}** (VP, niveau difficile)") in why
    else:
        assert (f"🎖️ You take the seat of **🤖 {replaced}** (hard level), **Secretary** in the "
                f"last round: you owe your best card to **🤖 {partner}** (VP, hard level)") in why
    assert f"**🤖 {partner}**" in next(line for line in lines if line.startswith(
        t(locale, "hand.give_held_auto", cards="", name="")[:8]))
    assert not any(f"**{partner}**" in line or f"**{replaced}**" in line for line in lines)
    marie_lines = marie.hand.content.split("\n")
    assert not any("**Bot " in line for line in marie_lines)
    # Once the cards have changed hands, the notes name the bot so too.
    await play_until(fake, clock, [], lambda: game.phase is Phase.PLAY)
    notes = [entry_text(locale, table, note) for note in table.exchange_notes[seat]]
    assert t(locale, "hand.bot_named", name=f"🤖 {partner}", level=hard) in notes[0]
    if locale == "fr":
        assert notes[0].endswith(french(f"à 🤖 {partner} (niveau difficile)."))
    # A snapshot from before the level was kept names the bot bare, as it did.
    older = table.to_dict()
    for note in older["exchange_notes"][str(seat)]:
        del note["params"]["level"]
    restored = Table.from_dict(older)
    bare = [entry_text(locale, restored, note) for note in restored.exchange_notes[seat]]
    assert bare and all(partner in note and "🤖" not in note for note in bare)
    fake.assert_no_errors()


async def test_a_language_switch_reaches_a_hand_open_on_another_server(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie plays at the Cercle and at the Club with Discord in French, switches it to
    English and types a command at the Club: her Club hand spoke English at once, her
    Cercle hand only at that table's next move. Discord's locale is the user's, not the
    server's: every hand of hers follows it."""
    evening, at_cercle, at_club = await tables_in_two_servers(fake, clock, president)
    marie = evening.marie
    marie.channel = evening.cartes
    await marie.click(message(marie, at_cercle.table_message_id), cid(at_cercle, "hand"))
    cercle_hand = marie.last_ephemeral().id
    assert "🂠 **Ta main**" in message(marie, cercle_hand).content
    marie.channel = evening.cards
    await marie.click(message(marie, at_club.table_message_id), cid(at_club, "hand"))
    club_hand = marie.last_ephemeral().id
    game = at_cercle.game
    assert game is not None
    await tick(fake, clock, 1)
    version = game.version

    marie.user.locale = "en-US"  # she switches Discord to English
    await marie.slash("president rules")
    await tick(fake, clock, 2)
    assert "🂠 **Your hand**" in message(marie, club_hand).content
    marie.channel = evening.cartes
    assert "🂠 **Your hand**" in message(marie, cercle_hand).content
    assert game.version == version  # redrawn for her language, not for a move
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_table_says_how_to_reopen_a_hand_closed_by_mistake(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie dismissed her hand (« Ignorer le message »). Discord tells the bot nothing, so
    her hand looked open: the table message asked nobody to press « Ma main » and said
    nowhere what it does, until her turn ran out. It says it reopens a hand closed by
    mistake; pressed, it does, as the game is now. Once someone is asked to press it, their
    line says so instead."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    dismissed = marie.hand
    marie.user.dismiss(dismissed)
    await tick(fake, clock, 1)
    board = message(marie.user, table.table_message_id)
    told = t(locale, "table.reopen_hand")
    assert board.content.split("\n")[-1] == told
    if locale == "fr":
        assert told == french("🂠 Main fermée par erreur ? **Ma main** la rouvre.")
    assert t(locale, "btn.my_hand") in [b.label for b in board.buttons]
    await marie.open_hand(president)
    assert marie.hand.id != dismissed.id and not marie.hand.dismissed
    (kept,) = [m for m in fake.messages() if m.id == dismissed.id]  # redrawn, unseen
    assert marie.hand.content.split("\n")[0] == kept.content.split("\n")[0]  # her cards
    # Her turn let run out: she is asked by name, and the general line gives way.
    seat = table.seat_of(marie.user.id)
    marie.user.dismiss(marie.hand)
    await play_until(fake, clock, [bob], lambda: game.to_act == seat)
    for _ in range(200):
        if game.to_act != seat:
            break
        await tick(fake, clock, 1)
    await tick(fake, clock, 1)
    lines = message(marie.user, table.table_message_id).content.split("\n")
    assert told not in lines
    assert any(line.startswith("🔔") and "marie" in line for line in lines)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_pick_in_a_hand_older_than_its_token_is_told_it_was_not_taken(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """A slow game (ten-minute turns): marie's hand outlived its 15-minute token (Discord:
    « Interaction tokens are valid for 15 minutes », Receiving and Responding), its last
    edit saying it no longer follows the game. The game moved on; she picked a card in it.
    The answer, through the click's fresh token, drew her hand as it is now under « ⚠️ Trop
    tard : ton temps était écoulé… », but the table's refresh that stops asking her for « Ma main »
    redrew the hand at once, wiping that line: her card was still there and nothing said
    why. The line stays until the hand changes; the hand follows the game again."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                                 turn_seconds=600)
    seat = table.seat_of(marie.user.id)
    assert seat is not None
    for _ in range(96):  # sixteen minutes: bob's turn runs out, then marie's comes
        await tick(fake, clock, 10)
    frozen = marie.hand
    assert frozen.content.startswith(t(locale, "hand.lapsing", refresh=t(locale, "btn.refresh"),
                                       hand=t(table.locale, "btn.my_hand")))
    version = game.version
    while game.version == version:  # her turn runs out too: the game moves on
        await tick(fake, clock, 10)
    await tick(fake, clock, 1)
    assert message(marie.user, frozen.id).content == frozen.content  # as it was
    cards = len(game.hand(seat))
    menu = next(s for s in frozen.selects if ":play:" in s.custom_id)
    picked = await marie.user.select(frozen, [menu.options[0].value], select=menu.custom_id)
    assert picked.response_type == 7 and len(game.hand(seat)) == cards
    told = "⚠️ " + t(locale, "err.timer_played")  # her own timer beat the pick
    for _ in range(3):
        assert marie.hand.content.split("\n")[0] == told
        await tick(fake, clock, 1)
    assert table.hands[marie.user.id].valid(president.service.clock.now())
    assert "marie" not in "".join(line for line in message(
        marie.user, table.table_message_id).content.split("\n") if line.startswith("🔔"))
    # The next move redraws it, as the game is then.
    version = game.version
    await play_until(fake, clock, [bob], lambda: game.version != version)
    await tick(fake, clock, 1)
    assert not marie.hand.content.startswith(told)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_revolution_names_jokers_and_the_lone_card_and_the_page_follows_the_flip(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """At proletario the host turned revolutions on and set the 2♠ to win any trick alone.
    After four 5s, the hands and the rules page said « les jokers restent au-dessus de tout »
    and nothing of the 2♠, which the engine still lets answer anything. Both are named.
    And the page's answer line still excepted « un groupe de 2 sur un coup d’une carte de
    plus », which the flip had ended (the 2s are the weakest): during the revolution it
    names the plays the opener's hand names, and the 2s again once it is over."""
    table, game, players = await dealt(
        fake, clock, president, locale, "proletario",
        ["5H 5S 5D 5C 2C 2D 9S", "KD 3S 3H 8C", "QH 4C 4D 8D", "JH 6C 6D 2S"],
        revolution=True, top_single="2S")
    marie, paul, jeanne, lucas = players

    async def answer_line() -> str:
        await marie.user.slash("president rules")
        page = marie.user.last_ephemeral().embeds[0].description or ""
        start = t(locale, "howto.answer.higher.except", exceptions="").split("(")[0]
        return next(line for line in page.split("\n") if line.startswith(start))

    def excepted(*names: str) -> str:
        words = [t(locale, f"howto.except.{name}", card="2♠") for name in names]
        return t(locale, "howto.answer.higher.except",
                 exceptions=join_names(locale, words, "list.or"))

    assert await answer_line() == excepted("top_single", "jokers", "two_beats_larger")
    await play(fake, clock, marie, "5H 5S 5D 5C")
    assert game.revolution
    card = top_single_words(locale, Card.parse("2S"), False)
    said = t(locale, "hand.revolution_jokers_top_single", card=card)
    for player in players:
        assert said in player.hand.content.split("\n")
    if locale == "fr":
        assert said.endswith(french("les jokers restent au-dessus de tout, et le 2♠ joué "
                                    "seul au-dessus du reste."))
    assert await answer_line() == excepted("top_single", "jokers")
    await marie.user.slash("president rules")
    page = marie.user.last_ephemeral().embeds[0].description or ""
    assert "• " + t(locale, "howto.variant.revolution.jokers_top_single", card="2♠") \
        in page.split("\n")
    for player in (paul, jeanne, lucas):
        await pass_turn(fake, clock, player)
    lead = t(locale, "hand.lead_except", exceptions=join_names(
        locale, [t(locale, f"howto.except.{name}", card="2♠") for name in ("top_single",
                                                                           "jokers")],
        "list.or"))
    assert lead in marie.hand.content.split("\n")  # as the page now says
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_snapshot_without_the_penalty_s_card_does_not_say_it_was_a_2(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """At wild7 marie went out on 9♥ 7♥ and was sent down « avec un 7 ». A table saved
    before the card was kept (the history's line without its rank, the game without its
    plays) read, restored, « marie a fini sur un 2 » and « Tu as fini sur un 2 », the card
    a line without one defaulted to. Where only 2s send a player down that is right; where
    7s do too, the lines name both, as the rule does."""
    table, game, (marie, _, _) = await dealt(
        fake, clock, president, locale, "wild7", ["9H 7H", "9S 6C 10C", "KH KS 4C 8D"])
    await play(fake, clock, marie, "9H 7H")
    assert game.penalised == [0]
    older = table.to_dict()
    for entry in older["log"]:
        entry["params"].pop("rank", None)
    game_part = older["game"]
    assert game_part is not None and game_part.pop("tells") and game_part.pop("played")
    restored = Table.from_dict(older)
    two, seven = rank_words(locale, "2", 1, False), rank_words(locale, "7", 1, False)
    third = place(locale, 3)
    board = table_screen(restored, 0.0).content.split("\n")
    said = t(locale, "ev.penalised_either", name="marie", two=two, seven=seven, place=third)
    assert f"• {said}" in board
    hand = hand_screen(restored, marie.user.id, locale).content.split("\n")
    assert t(locale, "hand.out_penalised_either", two=two, seven=seven, place=third) in hand
    if locale == "fr":
        assert french("• marie a fini sur un 2 ou avec un 7 : 3e place") in board
    assert not [line for line in board + hand if t(locale, "ev.penalised", name="marie",
                                                   rank=two, place=third) in line]
    # Only 2s send a player down at classic: there, a 2 it was.
    restored.rules = restored.rules.replace(finish_penalty="two")
    hand = hand_screen(restored, marie.user.id, locale).content.split("\n")
    assert t(locale, "hand.out_penalised", rank=two, place=third) in hand
    fake.assert_no_errors()
