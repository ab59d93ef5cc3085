"""End-to-end: play-test 4, big and small tables, timers, hints and scores."""

import pytest

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.i18n.typography import french
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    before_takeover,
    create_table,
    deal,
    eight_seat_game_over,
    host_against_bots,
    let_timers_play,
    message,
    record_charts,
    tick,
)

# Eight 32-character display names, Discord's longest.
LONG_NAMES = [f"Jean-Baptiste de la Fontaine {i:03d}" for i in range(8)]


async def test_eight_long_names_keep_the_final_standings_whole(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: at 8 seats with 32-character names, the game-over table message
    ran past Discord's 2,000 characters and was cut mid-name, the last standings and the
    host's choice lost. The oldest history lines give way instead."""
    assert all(len(name) == 32 for name in LONG_NAMES)
    game, board = await eight_seat_game_over(fake, clock, instant, LONG_NAMES)
    assert len(board) <= 2000
    standings = before_takeover("fr", board.split("**Classement final**\n")[1].split("\n"))
    assert len(standings) == 9, board  # every seat, then the host's choice
    for name in LONG_NAMES:
        points = plural("fr", "n.points", game.points[LONG_NAMES.index(name)])
        assert f"**{name}** · {points}" in board
    assert standings[-1] == t("fr", "table.host_over", host=LONG_NAMES[0])
    assert french("Derniers coups :") in board  # what history fits stays
    fake.assert_no_errors()


async def test_a_name_with_markdown_is_drawn_as_typed_on_the_points_chart(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """From the play-test: messages escape a name's markdown (« Zoë\\_\\*x\\* »), and the
    chart drew those backslashes into its picture, which is no markdown."""
    drawn = record_charts(monkeypatch)
    zoe = fake.add_user("Zoë_*x* <3 `y`", locale="fr")
    table = await host_against_bots(instant, zoe, "classic", 2, game_end="rounds:1")
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    assert "**Zoë\\_\\*x\\* \\<3 \\`y\\`** · " in \
        message(zoe, table.table_message_id).content  # escaped in the message
    assert [c.names for c in drawn] == [("Zoë_*x* <3 `y`", "Bot 1 (normal)", "Bot 2 (normal)")]
    fake.assert_no_errors()


async def test_the_french_hint_for_a_sure_lead_agrees_with_any_play(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: « Le bot normal jouerait un 2 — personne ne peut la battre » (or
    « deux 2 », « un Roi »): no feminine word for « la » to stand for."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await create_table(president, marie.user)
    await president.service.set_options(table, marie.user.id, hints=True)
    for _ in range(2):
        await president.service.add_bot(table, marie.user.id)
    await president.service.games.start(table, marie.user.id)
    await tick(fake, clock, 1)
    deal(president, table, [["2S", "5H"], ["3H", "4H", "8C"], ["6D", "6H", "9C"]], opener=0)
    await tick(fake, clock, 1)
    await marie.open_hand(president)
    hint = next(b.custom_id for b in marie.hand.buttons if b.custom_id and ":hint:" in b.custom_id)
    await marie.user.click(marie.hand, hint)
    assert marie.hand.content.splitlines()[0] == french("💡 Le bot normal jouerait un 2 — personne "
        "ne peut battre ce coup : tu gardes la main pour tes dernières cartes.")
    fake.assert_no_errors()


async def test_wild7_at_two_seats_pages_a_26_card_hand_and_plays_from_the_second_page(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Two seats of wild7 deal 26 cards each: singles and pairs fill a page of four menus
    (25 options at most each, each named by the values it spans), « Autres coups » turns to the triples and fours,
    and a four with two wild 7s picked there is played."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await host_against_bots(president, marie.user, "wild7", 1)
    await tick(fake, clock, 1)
    deck = sorted(table.rules.deck_kind.cards(), key=str)
    game = deal(president, table, [deck[0::2], deck[1::2]], opener=0)
    await marie.open_hand(president)
    first = marie.hand
    assert [(s.placeholder, len(s.options)) for s in first.selects] == [
        ("Jouer une carte… (3 à V)", 25), ("Jouer une carte… (D à 2)", 12),
        ("Jouer une paire… (3 à V)", 25), ("Jouer une paire… (D à 2)", 12)]
    turn = next(b for b in first.buttons if b.custom_id and ":page:" in b.custom_id)
    assert turn.label == "Autres coups (2/2)"
    await marie.user.click(first, turn.custom_id or "")
    second = marie.hand
    assert second.id == first.id  # the same message, turned
    assert [(s.placeholder, len(s.options)) for s in second.selects] == [
        ("Jouer un brelan…", 24), ("Jouer un carré…", 12)]
    assert "Autres coups (1/2)" in [b.label for b in second.buttons]
    four = second.select("Jouer un carré…")
    option = next(o for o in four.options if o.label == "3♣ 3♥ 7♣ 7♥")
    assert option.description == "quatre 3, dont deux 7"
    await marie.user.select(second, [option.value], select=four.custom_id)
    assert len(game.hand(0)) == 22
    await tick(fake, clock, 1)
    assert "marie joue quatre 3, dont deux 7" in \
        message(marie.user, table.table_message_id).content
    fake.assert_no_errors()
