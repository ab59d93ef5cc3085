"""Rendering of hands and the table from engine states (no Discord connection needed)."""

from typing import Any

import discord
import pytest

from bot.packages.controls import CUSTOM_ID
from bot.packages.game import display
from bot.packages.game.display import (
    hand_screen,
    option_value,
    parse_option,
    table_screen,
)
from bot.tables.table import Player, Table
from engine import Game, Phase, Rules


def table_for(preset: str, seats: int, **kwargs: Any) -> Table:
    rules = Rules.preset(preset)
    table = Table(id=7, channel_id=1, guild_id=1, host_id=100, locale="en", rules=rules)
    table.seats = [Player(100 + s, f"p{s}") for s in range(seats)]
    table.game = Game.new(rules, seats=seats, seed=3, **kwargs)
    return table


def selects(view: discord.ui.View | None) -> list[discord.ui.Select[Any]]:
    assert view is not None
    return [getattr(i, "item", i) for i in view.children
            if isinstance(getattr(i, "item", i), discord.ui.Select)]


def test_every_legal_play_is_offered_across_pages_within_discord_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = table_for("wild7", 2)
    game = table.game
    assert game is not None and game.to_act is not None
    seat = game.to_act
    legal = {option_value(o) for o in game.legal_plays(seat)}
    assert len(legal) > 25  # 26 cards with wild 7s: more than one select can hold
    first = hand_screen(table, 100 + seat, "en")
    assert {o.value for m in selects(first.view) for o in m.options} == legal
    monkeypatch.setattr(display, "SELECTS_PER_PAGE", 1)  # force paging
    offered: set[str] = set()
    for page in range(20):
        screen = hand_screen(table, 100 + seat, "en", page=page)
        menus = selects(screen.view)
        assert len(menus) <= 1
        assert all(len(m.options) <= 25 for m in menus)
        assert screen.view is not None and len(screen.view.children) <= 25
        for item in screen.view.children:
            assert CUSTOM_ID.fullmatch(getattr(item, "item", item).custom_id)
        offered |= {o.value for m in menus for o in m.options}
    assert offered == legal
    cards, announce = parse_option(next(iter(legal)))
    assert cards


def test_presi_high_role_gives_its_weakest_cards_pre_checked() -> None:
    table = table_for("presi", 3, previous_ranking=[0, 1, 2])
    game = table.game
    assert game is not None and game.phase is Phase.EXCHANGE
    due = game.exchange_due(0)
    assert due is not None and due.mode == "weakest"
    screen = hand_screen(table, 100, "fr")
    assert "Échange à l’aveugle" in screen.content
    menu = selects(screen.view)[0]
    chosen = [o.value for o in menu.options if o.default]
    assert chosen == [str(c) for c in due.allowed[:due.count]]
    assert screen.view is not None
    confirm = [getattr(i, "item", i).custom_id for i in screen.view.children
               if ":give_ok:" in (getattr(i, "item", i).custom_id or "")]
    assert confirm == [f"pz:7:give_ok:{game.version}:{'.'.join(chosen)}"]


def test_table_message_shows_turn_countdown_counts_and_roles() -> None:
    table = table_for("classic", 4, previous_ranking=[0, 1, 2, 3])
    game = table.game
    assert game is not None
    table.timer_deadline = 1_700_000_030.0
    screen = table_screen(table, 1_700_000_000.0)
    assert "<t:1700000030:R>" in screen.content
    assert "President" in screen.content and "Scum" in screen.content
    assert "p0 → p3: 2" in screen.content and "p1 → p2: 1" in screen.content
    assert "p3 → p0" not in screen.content  # the low role's gift is automatic
