"""End-to-end: play-test 19, « the biggest tables »: every preset at the most seats it
allows, every seat taken by people of long names (32 characters, emoji, mixed scripts,
names that collide), spectators and a list for the next game, the longest hands (a
two-seat wild7 deals 26 cards each) and the longest tricks, in French and in English,
checked against Discord's limits and against the engine's legal plays."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.packages.game.hand_plays import option_value, suit_choices
from bot.packages.game.lines import EARLIER, cards_shown, played_order
from bot.packages.game.table_message import table_screen
from bot.packages.publisher.messages import Publisher
from bot.packages.rules_text import table_preset_name
from bot.tables.logentry import LogEntry
from bot.tables.table import Table
from engine import Card, Game, Phase, Rules
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import LinkedClock
from .e2e import (
    Player,
    before_takeover,
    cid,
    create_table,
    deal,
    host_against_bots,
    humans_only,
    message,
    play_until,
    tick,
    uncut_screens,
)

LOCALES = ["fr", "en-US"]
# Eight seats as a crowded evening fills them: Discord's longest names (32 characters), emoji,
# Greek, Cyrillic, right to left, and two members of one name.
LONG = ["Jean-Baptiste de la Fontaine 000", "🎉🎉 Zoé la Reine des Cartes 🎉🎉",
        "Αλέξανδρος Παπαδόπουλος-Νικολάου", "Marie-Christine Dupont-Lefebvre",
        "Marie-Christine Dupont-Lefebvre", "Wolfgang Amadeus Mozart-Salzburg",
        "Владимир Владимирович Краснов-Ив", "مرحبا بالعالم يا أصدقاء البطاقات"]
# Names of markdown characters, twice as long once escaped for the message.
MARKDOWN = [f"{i}" + "*_~|`" * 6 + "#" for i in range(8)]
# Six friends on the list for the next game.
WAITING = [f"Spectatrice n°{i} du dimanche soir"[:32] for i in range(6)]


@pytest.fixture(autouse=True)
def shown(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the bot asks to show, before `Screen.kwargs` would cut it at Discord's
    2,000 characters (Create Message, « content: up to 2000 characters »,
    https://discord.com/developers/docs/resources/message#create-message): none of this
    play-test's may need cutting, as a cut drops the message's end mid-word."""
    yield from uncut_screens(monkeypatch)


def ladder_deal(seats: int) -> tuple[list[list[str]], list[tuple[int, str]]]:
    """A presi deal (Spanish 48) at ``seats`` seats whose first trick runs as long as it
    can: every card but the 2 of oros (which would close it) from the 3s up, each played
    by the seat whose turn it is (an equal answer skips the next seat, presi's
    `skip_next`), until a seat would play its sixth card (it would go out, which closes
    the trick at presi). The hands, and the plays in order as (seat, card)."""
    order = ["3", "4", "5", "6", "7", "8", "9", "J", "N", "K", "A", "2"]
    deck = [f"{rank}{suit}" for rank in order for suit in "OCEB" if f"{rank}{suit}" != "2O"]
    hands: list[list[str]] = [[] for _ in range(seats)]
    plays: list[tuple[int, str]] = []
    seat, previous = 0, ""
    for card in deck:
        if len(hands[seat]) == 48 // seats - 1:
            break
        hands[seat].append(card)
        plays.append((seat, card))
        seat = (seat + (2 if card[:-1] == previous else 1)) % seats
        previous = card[:-1]
    for card in [c for c in deck if (c not in {p for _, p in plays})] + ["2O"]:
        min(hands, key=len).append(card)
    return hands, plays


async def eight_and_six_listed(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                              locale: str, names: Sequence[str]
                              ) -> tuple[Table, list[TestUser]]:
    """Eight people named ``names`` at a presi table opened to eight seats, its game
    started, and six more (`WAITING`) on the list for the next game, nobody's hand open:
    the crowded evening's longest table message."""
    users = [fake.add_user(name, locale=locale) for name in names]
    table = await create_table(bot, users[0], "presi")
    await bot.service.set_rules(table, users[0].id, table.rules.replace(max_players=8))
    for user in users[1:]:
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await users[0].click(message(users[0], table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    for name in WAITING:
        friend = fake.add_user(name, locale=locale)
        await friend.click(message(friend, table.table_message_id), cid(table, "join"))
    return table, users


async def a_long_trick(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                       locale: str, names: Sequence[str]) -> tuple[Table, list[TestUser]]:
    """`eight_and_six_listed`'s table dealt as `ladder_deal` deals, its first trick played
    to its last play."""
    table, users = await eight_and_six_listed(fake, clock, bot, locale, names)
    hands, plays = ladder_deal(8)
    game = Game.new(table.rules, seats=8, seed=1, bots=[], opener=0,
                    hands=[[Card.parse(c) for c in hand] for hand in hands])
    table.game = game
    bot.service._after(table, [])
    for seat, card in plays:
        bot.service._after(table, game.play(seat, [Card.parse(card)], None))
    assert len(game.trick) == len(plays) >= 30 and game.to_act is not None
    await tick(fake, clock, 1.5)
    return table, users


def last_play(table: Table, locale: str) -> str:
    """The trick's latest play as the trick's line words it: the one to beat."""
    game = table.game
    assert game is not None and game.trick
    play = game.trick[-1]
    cards = cards_shown(locale, table, played_order(play.cards, game.rules.wild_level),
                       play.announce)
    return t(locale, "table.trick_play", name=table.name(play.seat), cards=cards)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_long_trick_leaves_the_table_message_whole(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: at eight seats of 32-character names, a presi trick of 37
    plays (equal answers skip, nothing closes it) took the table message past 2,000
    characters once its history had gone: Discord's cut dropped the list for the next
    game mid-name and the line asking everyone to press « Ma main ». The trick's oldest
    plays now give way to « … », the play to beat always shown."""
    table, users = await a_long_trick(fake, clock, instant, locale, LONG)
    board = message(users[0], table.table_message_id).content
    lines = board.split("\n")
    trick = lines[1]
    assert trick.startswith(t(locale, "table.trick", plays=f"{EARLIER} · "))
    assert trick.endswith(last_play(table, locale))
    assert any(line.startswith(t(locale, "table.waiting_next", names="")) for line in lines)
    assert lines[-1].startswith("🔔 ") and all(name in lines[-1] for name in
                                               [p.name for p in table.seats])
    assert t(locale, "table.recent") not in board  # the history went first
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_hand_shows_the_latest_plays_of_a_long_trick(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """The hand ends on the trick's line: names of markdown characters (each doubled by
    its escapes) made that line of 37 plays longer than the hand's 2,000 characters, and
    the cut took the newest plays, the one the player must beat among them. The hand keeps
    them and leaves out the oldest."""
    table, users = await a_long_trick(fake, clock, instant, locale, MARKDOWN)
    game = table.game
    assert game is not None and game.to_act is not None
    player = Player(users[game.to_act])
    await player.open_hand(instant)
    hand = player.hand
    trick = next(line for line in hand.content.split("\n")
                 if line.startswith(t(locale, "table.trick", plays="")))
    assert trick.startswith(t(locale, "table.trick", plays=f"{EARLIER} · "))
    assert trick.endswith(last_play(table, locale))
    assert any(":play:" in menu.custom_id for menu in hand.selects)
    fake.assert_no_errors()


def offered_plays(hand: Message) -> set[str]:
    return {o.value for menu in hand.selects if ":play:" in menu.custom_id
            for o in menu.options}


async def every_page(player: Player) -> set[str]:
    """The plays a hand's menus offer over all its pages, « Autres coups » pressed until it
    comes back to the first; no page holds more than Discord's five rows (the fake refuses
    a sixth)."""
    offered = offered_plays(player.hand)
    for _ in range(10):
        more = next((b.custom_id for b in player.hand.buttons
                     if b.custom_id and ":page:" in b.custom_id), None)
        if more is None:
            return offered
        await player.user.click(player.hand, more)
        offered |= offered_plays(player.hand)
        if more.endswith(":0"):
            return offered
    raise AssertionError("the pages never came back to the first")


def legal_values(game: Game, seat: int) -> set[str]:
    hand = game.hand(seat)
    return {option_value(choice) for option in game.legal_plays(seat)
            for choice in suit_choices(game, seat, option, hand)}


@pytest.mark.parametrize(("preset", "locale", "seats", "rules"), [
    ("wild7", "fr", 2, {"max_players": 2}),
    ("proletario", "en-US", 2, {"min_players": 2, "max_players": 2}),
    ("classic", "en-US", 6, {}),
])
async def test_the_biggest_hands_reach_every_legal_play(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, preset: str, locale: str,
    seats: int, rules: dict[str, Any],
) -> None:
    """From the play-test: a two-seat wild7 deals 26 cards each (with 7s, a single and a
    pair of each value they join: 80 plays and more, over two pages of four menus), a
    two-seat proletario 27 with the jokers, classic six seats. At each turn of the first
    round the menus, over all their pages, offer exactly the engine's legal plays, one per
    choice of cards: none was missing."""
    users = [fake.add_user(name, locale=locale) for name in LONG[:seats]]
    table, players = await humans_only(fake, clock, instant, users, preset, **rules)
    game = table.game
    assert game is not None and max(len(game.hand(s)) for s in range(seats)) >= 8
    paged = checked = 0
    while game.phase is Phase.PLAY and checked < 40:
        seat = game.to_act
        assert seat is not None
        player = next(p for p in players if table.seat_of(p.user.id) == seat)
        await player.open_hand(instant)
        paged += any(b.custom_id and ":page:" in b.custom_id for b in player.hand.buttons)
        assert await every_page(player) == legal_values(game, seat)
        checked += 1
        await player.open_hand(instant)
        await player.act()
        await tick(fake, clock, 1)
    assert checked >= 5 and (paged > 0 or seats > 2)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_proletario_table_of_eight_is_not_titled_four_seats(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: a host opened proletario to eight seats. The lobby, the table
    message, the settings panel and `/president règles` read « Proletario (4 places,
    jokers) » above eight players and « Places maximum : 8 ». A preset's name that speaks
    of what the host changed (its seats, its deck) gives way to its plain name there; the
    rules line says what changed. A table as the preset has it keeps the full name."""
    users = [fake.add_user(name, locale=locale) for name in LONG]
    plain = t(locale, "preset_plain.proletario")
    full = t(locale, "preset.proletario")
    table = await create_table(instant, users[0], "proletario")
    lobby = message(users[0], table.lobby_message_id)
    assert lobby.content.split("\n")[0] == t(locale, "lobby.title", preset=full)
    await instant.service.set_rules(table, users[0].id, table.rules.replace(max_players=8))
    await users[0].click(message(users[0], table.lobby_message_id), cid(table, "settings"))
    assert t(locale, "settings.title", preset=plain) in users[0].last_ephemeral().content
    for user in users[1:]:
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    lobby = message(users[0], table.lobby_message_id)
    assert lobby.content.split("\n")[0] == t(locale, "lobby.title", preset=plain)
    await users[0].click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    board = message(users[0], table.table_message_id).content
    assert board.split("\n")[0] == t(locale, "table.title", round=1, preset=plain)
    await users[1].slash("president rules")
    assert users[1].last_ephemeral().embeds[0].title == t(locale, "rules.title", preset=plain)
    fake.assert_no_errors()


def test_a_presets_name_gives_way_only_to_what_it_speaks_of() -> None:
    """Presi named for its Spanish deck loses « (jeu espagnol) » on a French one, not on
    the 40-card Spanish deck nor for a knob its name does not speak of; classic names
    nothing a host changes, and wild7 not its seats."""
    presi = Rules.preset("presi")
    assert table_preset_name("fr", presi) == t("fr", "preset.presi")
    assert table_preset_name("fr", presi.replace(max_players=8)) == t("fr", "preset.presi")
    assert table_preset_name("fr", presi.replace(deck="spanish40")) == t("fr", "preset.presi")
    french = presi.replace(deck="french52", top_single="none", first_opener="queen_of_hearts")
    assert table_preset_name("fr", french) == "Presi"
    assert table_preset_name("en-US", Rules.preset("proletario", min_players=3)) == "Proletario"
    assert table_preset_name("en-US", Rules.preset("wild7", max_players=2)) == "Wild 7s"


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_joker_is_on_the_first_page_beside_a_four_of_a_kind(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: at proletario a hand holding four 9s and a joker had five menus
    (singles, pairs, threes, fours, and « Jouer une carte spéciale… »), four to a page: the
    joker, the strongest card, waited behind « Autres coups (2/2) ». A joker (as presi's 2
    of oros) is played alone: it joins the singles' menu, the strongest there."""
    host = Player(fake.add_user("marie", locale=locale))
    table = await host_against_bots(instant, host.user, "proletario", 3)
    await tick(fake, clock, 1)
    deal(instant, table, [
        ["9C", "9D", "9H", "9S", "BJ", "3C", "4C", "5C", "6C", "8C", "10C", "JC", "QC", "KC"],
        ["3D", "4D", "5D", "6D", "7D", "8D", "10D", "JD", "QD", "KD", "AD", "2D", "RJ"],
        ["3H", "4H", "5H", "6H", "7H", "8H", "10H", "JH", "QH", "KH", "AH", "2H", "7C"],
        ["3S", "4S", "5S", "6S", "7S", "8S", "10S", "JS", "QS", "KS", "AS", "2S", "AC", "2C"],
    ], opener=0)
    await tick(fake, clock, 1)
    await host.open_hand(instant)
    hand = host.hand
    menus = [menu for menu in hand.selects if ":play:" in menu.custom_id]
    assert [menu.placeholder for menu in menus] == [
        t(locale, f"hand.group.{count}") for count in (1, 2, 3, 4)]
    assert menus[0].options[-1].value == "BJ"
    assert not any(b.custom_id and ":page:" in b.custom_id for b in hand.buttons)
    await host.user.select(hand, ["BJ"], select=menus[0].custom_id)
    game = table.game
    assert game is not None and Card.parse("BJ") not in game.hand(0)  # (it closed the trick)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_retired_table_message_keeps_its_last_line_whole(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: at eight seats of long names, the history trimmed to the
    table message's room and a trick's faces added under it up to Discord's 2,000, a
    table message replaced by a newer one (55 minutes old, say) kept all of it and ended
    on « ⬇️ La table continue dans un message plus récent, plus bas. »: 2,006 characters,
    the cut taking « bas. ». Its text keeps the trick's cards as text then, and its note
    whole, whatever the history's length."""
    users = [fake.add_user(name, locale=locale) for name in ["Al", *LONG[1:]]]
    table, players = await humans_only(fake, clock, instant, users, "wild7")
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    deck = [Card.parse(f"{rank}{suit}") for rank in ranks for suit in "CDHS"]
    hands = [deck[seat::8] for seat in range(8)]
    game = Game.new(table.rules, seats=8, seed=1, bots=[], opener=6, hands=hands)
    table.game = game
    instant.service._after(table, game.play(6, [game.hand(6)[0]], None))
    instant.service._after(table, game.play(7, [game.hand(7)[-1]], None))
    assert game.to_act == 0
    await tick(fake, clock, 5)  # the card faces' sync, which runs at start
    for player in players:
        await player.open_hand(instant)  # no « appuyez sur Ma main » under the history
    note = t(locale, "table.moved_on")
    faced = 0
    for lines in range(20, 40):
        for width in range(20, 32):
            table.log = [LogEntry("ev.passed", {"name": LONG[1 + i % 7][:width]})
                         for i in range(lines)]
            screen = table_screen(table, clock.now())
            retired = Publisher._retired(table, screen.retired)
            assert retired is not None and len(retired) <= 2000
            assert retired.endswith(f"\n\n{note}")
            faced += "<:" in screen.content
    assert faced  # the faces were there to crowd it
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_eight_markdown_names_leave_the_hosts_choice_whole(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: eight players named in markdown characters (each doubled by its
    escapes) and four friends listed for the next game: the finished game's message, its
    history, player lines and chart text gone, was still 2,119 characters, and Discord's
    cut took the host's choice (« **Rejouer** … ou **Terminer** »). The list gives way to
    its count, then the last round's lines: the final standings name everyone."""
    users = [fake.add_user(name, locale=locale) for name in MARKDOWN]
    table, players = await humans_only(fake, clock, instant, users, "wild7",
                                       game_end="rounds:1")
    for name in WAITING[:4]:
        friend = fake.add_user(name, locale=locale)
        await friend.click(message(friend, table.table_message_id), cid(table, "join"))
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    board = message(users[0], table.table_message_id).content
    lines = before_takeover(locale, board.split("\n"))
    assert lines[-1] == t(locale, "table.host_over_waiting", host=table.seats[0].name, max=8)
    standings = lines[lines.index(t(locale, "table.standings")) + 1:]
    assert all(any(f"**{p.name}**" in line for line in standings) for p in table.seats)
    assert t(locale, "table.waiting_next", names=plural(locale, "lobby.queue_count", 4)) in lines
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_an_exchange_of_eight_markdown_names_still_asks_them_to_press_my_hand(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: presi opened to eight players named in markdown characters, six
    friends listed for the next game, nobody's hand live as the exchange began: four
    exchange lines, eight player lines, the list and the eight names asked to press « Ma
    main » made 2,255 characters, with no history nor trick to shorten, and the cut took
    that last line mid-name. The list, then those asked, give way to their count."""
    table, users = await eight_and_six_listed(fake, clock, instant, locale, MARKDOWN)
    table.game = Game.new(table.rules, seats=8, seed=1, previous_ranking=range(8))
    instant.service._after(table, [])
    await tick(fake, clock, 1.5)
    assert table.game.phase is Phase.EXCHANGE
    lines = message(users[0], table.table_message_id).content.split("\n")
    assert t(locale, "table.waiting_next", names=plural(locale, "lobby.queue_count", 6)) in lines
    assert lines[-1] == plural(locale, "table.press_hand", 8,
                               names=plural(locale, "lobby.queue_count", 8))
    fake.assert_no_errors()
