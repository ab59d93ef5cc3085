"""End-to-end: play-test 46 (stop 62), two tables of one server at once, one of them
wild7 at eight with a member in a moderator's timeout. In #general marie (fr) hosts wild7
with bob (en-US), claire (fr), dave (en-GB), emma (en-US) and an easy, a normal and a hard
bot; mid-lobby she turns « 💡 Conseil » and the revolution on and sets the closing cards to
the best value from the settings panel, then « 2 manches ». In #autre alice (en-US) hosts
classic with fred (fr) and a bot, at the same time. claire is timed out by a moderator
mid-round (her clicks refused, her turns run out, the autopilot plays), emma asks for a
hint, dave presses marie's « Manche suivante » and fred « Ma main » at a table not his;
after round 2 is dealt bob clicks his round-1 hand as his client still showed it. Both
games are played out, then each reads `/president history` and `leaderboard`. Every
message each one sees (table, hands, prompts, DMs) is read each time it changes
(docs/bot.md « Play-test 46 (stop 62) »)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from engine import Phase
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import LinkedClock
from .e2e import (
    LOCALES,
    Player,
    act_or_wait,
    cid,
    connect_bot,
    create_table,
    database_url,
    message,
    three_at_classic,
    tick,
)
from .reading import Reader
from .test_e2e_playtest40 import table_in
from .test_e2e_playtest45 import reopen
from .test_e2e_settings import open_form

DUMP = os.environ.get("PT46_DUMP")  # a file to write every message read to, to read it through
GENERAL = {"marie": "fr", "bob": "en-US", "claire": "fr", "dave": "en-GB", "emma": "en-US"}
AUTRE = {"alice": "en-US", "fred": "fr"}


class Readers:
    """One reader a channel: each table's public messages speak its host's language."""

    def __init__(self, users: dict[str, TestUser]) -> None:
        self.general = Reader({n: users[n] for n in GENERAL}, GENERAL, "fr", dump=DUMP)
        self.autre = Reader({n: users[n] for n in AUTRE}, AUTRE, "en", dump=DUMP)

    def __call__(self, label: str = "") -> None:
        self.general(label)
        self.autre()


async def test_two_tables_a_timeout_stale_clicks_and_others_buttons(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    began = time.monotonic()
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    autre = fake.add_channel(fake.guild, "autre")
    users = {name: fake.add_user(name, locale=locale)
             for name, locale in {**GENERAL, **AUTRE}.items()}
    for name in AUTRE:
        users[name].channel = autre
    marie, bob, claire, dave, emma = (users[n] for n in GENERAL)
    alice, fred = users["alice"], users["fred"]
    reader = Readers(users)
    # -- #general: wild7, five people and three bots, knobs set mid-lobby -------------------
    await marie.slash("president create", preset="wild7")
    wild = table_in(bot, marie)
    for user in (bob, claire, dave, emma):
        await user.click(message(user, wild.lobby_message_id), cid(wild, "join"))
    for level in ("easy", "normal", "hard"):
        await marie.select(message(marie, wild.lobby_message_id), [level],
                           select=cid(wild, "addbot_level"))
    reader("general: lobby full")
    await marie.slash("president settings")
    await marie.click(marie.last_ephemeral(), cid(wild, "hints"))
    await open_form(marie, "revolution")
    await open_form(marie, "closing_rank")
    panel = marie.last_ephemeral()
    values = next(s for s in panel.selects if ":value:" in s.custom_id)
    await marie.select(panel, ["best"], select=values.custom_id)
    reader("general: closing cards")
    await open_form(marie, "game_end")
    await marie.modal_submit({"Nouvelle valeur": "2 manches"})
    await open_form(marie, "autopilot_after_timeouts")
    await marie.modal_submit({"Nouvelle valeur": "2"})
    await marie.click(marie.last_ephemeral(), cid(wild, "done"))
    await tick(fake, clock, 1)
    reader("general: settings done")
    assert wild.rules.revolution and wild.rules.closing_rank == "best" and wild.hints
    ruled = message(bob, wild.lobby_message_id).content.split("\n")[1]
    assert t("fr", "knob.revolution") in ruled and t("fr", "knob.closing_rank") in ruled
    await bob.click(message(bob, wild.lobby_message_id), cid(wild, "start"))  # the host's
    reader("general: bob presses start")
    assert bob.last_ephemeral().content.startswith("⚠️ " + t("en", "err.not_host",
                                                              host=marie.id))
    # -- #autre: classic, alice, fred and a bot, at the same time ---------------------------
    await alice.slash("president create", preset="classic")
    other = table_in(bot, alice)
    await fred.click(message(fred, other.lobby_message_id), cid(other, "join"))
    await alice.click(message(alice, other.lobby_message_id), cid(other, "addbot"))
    await marie.click(message(marie, wild.lobby_message_id), cid(wild, "start"))
    await alice.click(message(alice, other.lobby_message_id), cid(other, "start"))
    await tick(fake, clock, 1)
    reader("both dealt")
    wg, og = wild.game, other.game
    assert wg is not None and og is not None and wg.seats == 8
    wp = [Player(users[n]) for n in GENERAL]
    op = [Player(alice), Player(fred)]
    await reopen(bot, wp + op)
    reader("hands open")
    # -- fred, playing at #autre, presses « Ma main », then « Rejoindre », at #general ------
    fred.channel = fake.channel
    visiting = Reader({"fred": fred}, {"fred": "fr"}, "fr", dump=DUMP)
    await fred.click(message(fred, wild.table_message_id), cid(wild, "hand"))
    visiting("fred at #general")
    assert fred.last_ephemeral().content.startswith(t("fr", "hand.not_seated")[:20])
    await fred.click(message(fred, wild.table_message_id), cid(wild, "join"))
    visiting("fred joins at #general")
    fred.channel = autre
    playing = wp + op
    claire_p, emma_p = wp[2], wp[4]
    until = 0.0
    hinted = others = False
    bob_shown: Message | None = None  # bob's hand on his turn in round 1, as his client kept it
    stale: str | None = None
    for _ in range(4000):
        if wg.phase is Phase.GAME_OVER and og.phase is Phase.GAME_OVER:
            break
        if not until and wg.phase is Phase.PLAY and wg.version > 12:
            # -- claire is timed out by a moderator mid-round -----------------------------
            fake.time_out(fake.guild, claire, 90)
            until = fake.guild.timeouts[claire.id].timestamp()
            await claire.click(message(claire, wild.table_message_id), cid(wild, "hand"))
            await tick(fake, clock, 1)
            reader("claire, timed out, presses Ma main")
            assert t("fr", "hand.timed_out_mod", until=int(until)) in claire_p.hand.content
            playing.remove(claire_p)
        if until and claire_p not in playing and clock.now() > until + 5:
            await claire.slash("president resume")
            reader("claire resumes")
            await claire_p.open_hand(bot)
            playing.insert(2, claire_p)
        if wg.round_no == 1 and wg.phase is Phase.PLAY and \
                any(":play:" in m.custom_id for m in wp[1].hand.selects):
            bob_shown = wp[1].hand
        if not hinted and any(":hint:" in (b.custom_id or "") for b in emma_p.hand.buttons):
            await emma.click(emma_p.hand, cid(wild, "hint", wg.version))
            reader("emma asks a hint")
            assert emma_p.hand.content.startswith("💡 ")
            hinted = True
        for table, game, host, seated in ((wild, wg, marie, wp), (other, og, alice, op)):
            if game.phase is Phase.ROUND_OVER:
                await tick(fake, clock, 1)
                reader(f"{table.rules.preset_id} round over")
                if table is wild and not others:  # dave presses marie's « Manche suivante »
                    await dave.click(message(dave, wild.table_message_id),
                                     cid(wild, "next", game.version))
                    reader("dave presses next")
                    assert dave.last_ephemeral().content.startswith(
                        "⚠️ " + t("en", "err.not_host", host=marie.id))
                    others = True
                await host.click(message(host, table.table_message_id),
                                 cid(table, "next", game.version))
                await tick(fake, clock, 1)
                await reopen(bot, [p for p in playing if p in seated])
                reader(f"{table.rules.preset_id} next round")
        if bob_shown is not None and stale is None and wg.round_no == 2 \
                and wg.phase is Phase.PLAY:
            # -- bob picks a card in his round-1 hand, as his client still showed it -------
            menu = next(m for m in bob_shown.selects if ":play:" in m.custom_id)
            await bob.select_shown(bob_shown, [menu.options[0].value], select=menu.custom_id)
            reader("bob's stale click")
            stale = bob.last_ephemeral().content
        await act_or_wait(fake, clock, playing)
        reader()
    assert wg.phase is Phase.GAME_OVER and og.phase is Phase.GAME_OVER
    assert hinted and others and stale == "⚠️ " + t("en", "err.hand_moved"), stale
    await tick(fake, clock, 1)
    reader("both over")
    # -- afterwards: each channel's history, the standings ----------------------------------
    for user in users.values():
        for command in ("president history", "president leaderboard", "president stats"):
            await user.slash(command)
            reader(f"{user.name} {command}")
            if command == "president history":
                [listed] = user.last_ephemeral().embeds
                preset = "wild7" if user.name in GENERAL else "classic"
                assert listed.description is not None and len(
                    listed.description.split("\n")) == 1, listed.description
                assert t(user.user.locale, f"preset.{preset}") in listed.description
    if DUMP:
        with open(DUMP, "a", encoding="utf-8") as f:
            print("FIGURES", reader.general.read + reader.autre.read + visiting.read,
                  dict(reader.general.longest), dict(reader.autre.longest),
                  time.monotonic() - began, file=f)
    assert max(reader.general.longest.values()) <= 1500
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_hand_in_a_moderator_s_timeout_says_so_until_it_ends(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """From the play-test: claire, timed out by a moderator mid-round, pressed « Ma main »
    and was refused (« La modération t’a imposé une exclusion temporaire… »); her hand went
    on reading « ➡️ À toi de jouer » at each of her turns, its menus and « Conseil »
    offered, each click refused again, while her turns ran out. Once a click of hers is
    refused, her hand says until when she cannot play and how her seat waits; the line goes
    as the timeout ends, the hand redrawn then."""
    players, table = await three_at_classic(fake, president, clock, locale, bots=1)
    claire = players[2]
    fake.time_out(fake.guild, claire.user, 120)
    await tick(fake, clock, 1)
    until = int(fake.guild.timeouts[claire.user.id].timestamp())
    await claire.user.click(claire.hand, cid(table, "refresh"))
    refusal = claire.user.last_ephemeral()
    assert refusal.content.startswith("⚠️ " + t(locale, "err.timed_out", until=until)[:30])
    await tick(fake, clock, 1)
    said = t(locale, "hand.timed_out_mod", until=until)
    assert said in claire.hand.content.split("\n"), claire.hand.content
    reader = Reader({"claire": claire.user}, {"claire": locale}, public=locale[:2])
    reader()
    assert said not in players[1].hand.content  # bob's hand says nothing of it
    for _ in range(12):
        await tick(fake, clock, 10)
    assert said not in claire.hand.content, claire.hand.content
    shown = len(claire.user.visible())
    await claire.user.click(claire.hand, cid(table, "refresh"))  # answered in place again
    assert len(claire.user.visible()) == shown and said not in claire.hand.content
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_table_asks_no_one_in_a_moderator_s_timeout_to_press_ma_main(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """From the play-test: with claire in a moderator's timeout, the table message read
    « 🔔 claire : appuie sur **Ma main** pour voir tes cartes et jouer. », a button that
    refuses her until the timeout ends. Once the bot knows of it (her click refused), the
    table asks her no more, and asks again once it is over (nothing public says why)."""
    users = [fake.add_user(name, locale=locale) for name in ("marie", "bob", "claire")]
    marie, bob, claire = users
    table = await create_table(president, marie)
    for user in (bob, claire):
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "addbot"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    for user in (marie, bob):
        await Player(user).open_hand(president)
    await tick(fake, clock, 1)
    asked = t("fr" if locale == "fr" else "en", "table.press_hand.one", names="claire")
    assert asked in message(marie, table.table_message_id).content.split("\n")
    fake.time_out(fake.guild, claire, 60)
    await claire.click(message(claire, table.table_message_id), cid(table, "hand"))
    await tick(fake, clock, 1)
    board = message(marie, table.table_message_id)
    assert asked not in board.content.split("\n") and "claire" not in board.content.split(
        "\n")[-1], board.content
    for _ in range(7):
        await tick(fake, clock, 10)
    bell = message(marie, table.table_message_id).content.split("\n")[-1]
    assert bell.startswith("🔔") and "claire" in bell, bell
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_timeout_lifted_early_leaves_the_hand_at_the_next_click(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """Discord says nothing when a moderator lifts a timeout early: claire's next click goes
    through, and her hand no longer says she is timed out."""
    players, table = await three_at_classic(fake, president, clock, locale, bots=1)
    claire = players[2]
    fake.time_out(fake.guild, claire.user, 600)
    await claire.user.click(claire.hand, cid(table, "refresh"))
    await tick(fake, clock, 1)
    said = t(locale, "hand.timed_out_mod",
             until=int(fake.guild.timeouts[claire.user.id].timestamp())).split(" <t:")[0]
    assert claire.hand.content.startswith(said), claire.hand.content
    fake.time_out(fake.guild, claire.user, 0)  # lifted
    await claire.user.click(claire.hand, cid(table, "refresh"))
    await tick(fake, clock, 1)
    assert said not in claire.hand.content, claire.hand.content
    fake.assert_no_errors()
