"""The terminal sandbox drives the real bot on the fake Discord by typed lines."""

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n.typography import french
from bot.sandbox import (
    SANDBOX_HOME,
    SANDBOX_USER_ID,
    Terminal,
    as_client,
    countdowns,
    parse_options,
    sandbox_user,
)
from fakediscord import FakeDiscord, Message, TestUser, UserActionError, render_message
from fakediscord.clock import DEFAULT_START, FakeClock

from .conftest import LinkedClock
from .e2e import connect_bot, play_until, table_of, tick


def french_terminal_answering_1(fake: FakeDiscord,
                                monkeypatch: pytest.MonkeyPatch) -> tuple[TestUser, Terminal]:
    """A French player's terminal whose every question is answered with option 1."""
    user = fake.add_user("you", locale="fr")
    terminal = Terminal(fake, user)

    async def ask(prompt: str) -> str:
        return "1"

    monkeypatch.setattr(terminal, "ask", ask)
    return user, terminal


async def test_typed_lines_create_a_table_and_play(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    user = fake.add_user("you", locale="fr")
    terminal = Terminal(fake, user)
    answers = iter(["1"])

    async def ask(prompt: str) -> str:
        return next(answers)

    monkeypatch.setattr(terminal, "ask", ask)
    await terminal.handle("/president create preset:wild7")
    terminal.show()
    table = table_of(president, user)
    await terminal.handle("3")  # Ajouter un bot
    terminal.show()
    await terminal.handle("5")  # Lancer
    await tick(fake, clock, 1)
    terminal.show()
    assert table.game is not None
    await terminal.handle("B 1")  # Ma main, on the table message
    terminal.show()
    screen = capsys.readouterr().out
    assert "Ta main (26)" in screen.replace("**", "")
    game = table.game
    await play_until(fake, clock, [], lambda: game.to_act == 0)
    terminal.show()
    version = game.version
    await terminal.handle("1")  # the hand's first select: asks which option, answers 1
    assert game.version > version
    with pytest.raises(UserActionError):
        await terminal.handle("99")
    assert parse_options(["preset:presi"], "fr") == {"preset": "presi"}
    with pytest.raises(UserActionError, match="écris nom:valeur"):
        parse_options(["presi"], "fr")


async def test_a_name_the_client_would_not_offer_is_refused_in_the_player_s_language(
        fake: FakeDiscord, president: PresidentBot) -> None:
    """Play-test 13: `/president ouvrir règles:presi` answered « /president create has no
    option ['règles']; it has ['preset'] »: the fake's English, and names the French client
    never shows."""
    terminal = Terminal(fake, fake.add_user("léa", locale="fr"))
    for typed, says in [("/president ouvrir règles:presi", "ton client propose : préréglage"),
                        ("/president aide", "« aide » n’est pas proposé ici"),
                        ("/aide", "pas de commande /aide ici : celle du bot est /president"),
                        ("/president exclure", "il manque l’option membre"),
                        ("/president", "choisis une sous-commande : ouvrir, rejoindre"),
                        ("/president ouvrir préréglage:rapide",
                         "« rapide » n’est pas un choix de préréglage ; ton client propose : "
                         "Président classique"),
                        ("/president ouvrir préréglage classic",
                         "option « préréglage » : écris nom:valeur")]:
        with pytest.raises(UserActionError) as refused:
            await terminal.handle(typed)
        assert french(says) in str(refused.value)


def test_the_client_s_own_words_are_in_the_player_s_language(fake: FakeDiscord) -> None:
    """Play-test 13: the French sandbox framed French messages with « (to you) », « [only
    you can see this] » and « (pick 1-1) »."""
    user = fake.add_user("léa", locale="fr")
    hand = Message(id=1, channel_id=2, author="Président", author_id=3, content="Ta main",
                   embeds=(), components=({"type": 1, "components": [{
                       "type": 3, "custom_id": "m", "placeholder": "Jouer", "min_values": 1,
                       "max_values": 1, "options": [{"label": "un 3", "value": "3"}]}]},),
                   attachments=(), flags=64, ephemeral=True, loading=False, edited=True,
                   created_at=datetime(2025, 1, 1, tzinfo=UTC), interaction_user="léa")
    shown = render_message(hand, Terminal(fake, user).words)
    assert shown.splitlines()[:3] == [
        "Président (pour léa) [visible par toi seulement] (modifié)", "Ta main",
        "[1] <Jouer> (choisir de 1 à 1)"]


def test_countdowns_are_drawn_relative_to_now_in_the_readers_language() -> None:
    """From play-test 6: the sandbox, French by default, drew « à toi (in 30s) »."""
    assert countdowns("to play <t:130:R>", 100.0, "en-US") == "to play (in 30s)"
    assert countdowns("<t:90:R>", 100.0, "en-GB") == "(10s ago)"
    assert countdowns("à toi <t:130:R>", 100.0, "fr") == french("à toi (dans 30 s)")
    assert countdowns("<t:90:R>", 100.0, "fr") == french("(il y a 10 s)")


async def test_french_names_and_controls_redrawn_since_the_screen_was_printed(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    user, terminal = french_terminal_answering_1(fake, monkeypatch)
    await terminal.handle("/president ouvrir préréglage:wild7")  # as a French client shows it
    table = table_of(president, user)
    assert table.rules.preset_id == "wild7"
    terminal.show()
    await terminal.handle("3")  # Ajouter un bot
    terminal.show()
    await terminal.handle("5")  # Lancer
    await tick(fake, clock, 1)
    terminal.show()
    await terminal.handle("B 1")  # Ma main
    game = table.game
    assert game is not None
    await play_until(fake, clock, [], lambda: game.to_act == 0)
    terminal.show()
    option = game.legal_plays(0)[0]
    await president.service.moves.play(table, user.id, option.cards, option.announce, game.version)
    await play_until(fake, clock, [], lambda: game.to_act == 0)  # the bot answered
    await tick(fake, clock, 1)  # and the hand was redrawn
    version = game.version
    await terminal.handle("1")  # the printed hand is outdated: sent as picked, refused
    assert game.version == version
    # Beaten by the user's own play above (as from another device): said so (play-test 23).
    assert "Ton coup précédent est passé avant celui-ci" in user.last_ephemeral().content
    terminal.show()
    await terminal.handle("1")  # the fresh hand plays
    assert game.version > version


async def test_fast_mode_pick_on_an_older_menu_is_too_late(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    user, terminal = french_terminal_answering_1(fake, monkeypatch)
    await terminal.handle("/president ouvrir préréglage:classic")
    table = table_of(president, user)
    await president.service.set_rules(table, user.id, table.rules.replace(fast=True))
    await president.service.add_bot(table, user.id)
    await president.service.add_bot(table, user.id)
    await president.service.games.start(table, user.id)
    await tick(fake, clock, 1)
    terminal.show()
    await terminal.handle("B 1")  # Ma main
    terminal.show()  # the hand, drawn for the trick as it is now
    game = table.game
    assert game is not None
    hand = list(game.hand(0))
    played = len(table.log)
    await play_until(fake, clock, [], lambda: len(table.log) > played)  # a bot plays first
    await tick(fake, clock, 1)
    assert "ev.played" in [e.key for e in table.log]
    await terminal.handle("1")  # picked on the menu drawn before the bot's play
    assert list(game.hand(0)) == hand
    assert french("Trop tard : 🤖 Bot") in user.last_ephemeral().content
    fake.assert_no_errors()


def test_the_sandbox_player_keeps_one_id_across_runs() -> None:
    first, second = FakeDiscord(), FakeDiscord()
    assert sandbox_user(first, "fr").id == sandbox_user(second, "fr").id == SANDBOX_USER_ID


def test_markup_is_shown_as_a_discord_client_shows_it() -> None:
    text = as_client("<@42> · <t:0:d> · <@7>", 0.0, {42: "alice"}, "en-US")
    assert text.startswith("@alice · ") and "<t:" not in text and text.endswith("<@7>")


async def test_settings_buttons_keep_their_numbers_when_a_value_menu_appears(
    fake: FakeDiscord, president: PresidentBot, monkeypatch: pytest.MonkeyPatch,
) -> None:
    user = fake.add_user("you", locale="fr")
    terminal = Terminal(fake, user)
    await terminal.handle("/president ouvrir préréglage:classic")
    await terminal.handle("/president réglages")
    terminal.show()
    before = [c.custom_id for c in terminal.screen[-1].controls]
    table = table_of(president, user)
    panel = user.last_ephemeral()
    menu = next(s for s in panel.selects if any(o.value == "on_equal" for o in s.options))
    await user.select(panel, ["on_equal"], select=menu.custom_id)  # a value menu appears
    terminal.show()
    after = [c.custom_id for c in terminal.screen[-1].controls]
    assert len(after) == len(before) + 1 and after[:len(before)] == before
    done = next(i for i, cid in enumerate(after) if ":done:" in (cid or ""))
    assert done == next(i for i, cid in enumerate(before) if ":done:" in (cid or ""))
    assert table.rules.on_equal == "skip_unless_holding"


async def test_a_table_comes_back_when_the_sandbox_is_run_again(tmp_path: Path) -> None:
    """Play-test 13: an admin quit the sandbox mid-game and ran it again on the same
    database: « Il n’y a pas de table dans ce salon », the game stopped early. The fake
    minted a new server and channel each run, so the restored table's channel was gone."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'sandbox.db'}"
    game_no = None  # the game run 1 starts, which run 2 must find again
    for run in (1, 2):  # an hour apart: the fake mints its ids from its clock
        start = DEFAULT_START + timedelta(hours=run)
        async with FakeDiscord.running(home=SANDBOX_HOME, clock=FakeClock(start)) as fake:
            clock = LinkedClock(fake.clock)
            bot = await connect_bot(fake, clock, url)
            user = sandbox_user(fake, "fr")
            terminal = Terminal(fake, user)
            if run == 1:
                await terminal.handle("/president ouvrir")
                await terminal.handle("/president ajouter-bot")
                await terminal.handle("/president ajouter-bot")
                await terminal.handle("/president lancer")
                table = table_of(bot, user)
                assert table.game is not None
                game_no = table.game_no
            await tick(fake, clock, 1)
            await terminal.handle("/president main")
            assert "🂠 **Ta main**" in user.last_ephemeral().content
            assert table_of(bot, user).game_no == game_no
            await asyncio.gather(*bot.service.outbox.pending(), return_exceptions=True)
            await fake.disconnect(bot)
