"""End-to-end: stop 45's leftovers a player or host could meet (docs/bot.md, « Leftovers
(stop 47) »): results moved on from during their chart's upload show the chart once, as
text, whether the upload's answer was lost, the picture's take-off failed, or the bot
restarted before taking it off; a seat out on autopilot reads that it plays next round only
as far as the rules know there is one, and not at all once a finish penalty sent it last
and to the queue; a table's word posted then killed before it was stored as told is
posted once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.packages.game import chart
from bot.packages.publisher.charts import RETRY_DELAYS
from engine import GameEnd, Phase
from fakediscord import FakeDiscord, TestUser, errors

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    database_url,
    http_waits_on_the_fake_clock,
    message,
    record_charts,
    restart,
    table_of,
    tick,
)
from .test_e2e_attach_files import chart_line
from .test_e2e_chart_upload import EDIT, game_over_charted_late, injected, results
from .test_e2e_small_fixes45 import out_on_autopilot
from .test_e2e_unreadable_restart import posted_then_killed, start

LOCALES = ["fr", "en-US"]


async def left_during_the_upload(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                                 marie: TestUser, monkeypatch: pytest.MonkeyPatch
                                 ) -> tuple[int, str]:
    """marie's one-round game ends; its chart's upload meets a 502 discord.py tries again,
    four times over 16 s (on the fake clock), its fifth try carried out by Discord but its
    answer lost (a dropped connection). marie ends the game (« Terminer ») meanwhile: the
    results are retired with the chart as text (`Charts.moved_on`). The chart is drawn
    late (`game_over_charted_late`): drawn in time, the results' own edit would carry it,
    and they would not show before it ended (stop 52). The results message and the chart's
    line."""
    fake.inject_error(EDIT, 502, method="PATCH", uploads=True, times=4)
    fake.inject_disconnect(EDIT, method="PATCH", uploads=True, handled=True)
    table = await game_over_charted_late(fake, clock, bot, marie, monkeypatch)
    first, game = table.table_message_id, table.game
    assert first is not None and game is not None
    assert injected(fake) and 0 not in injected(fake)  # the upload is on its way
    await marie.click(results(marie, table), cid(table, "end", game.version))
    await tick(fake, clock, 5)
    assert table.game is None and table.charts_off == [first]
    return first, chart_line(table)


async def test_results_left_while_an_upload_s_answer_was_lost_show_the_chart_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The upload went through but its answer was lost: the picture stayed beside the text
    the results were retired with, as only an answered upload had it taken off."""
    record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    marie = fake.add_user("marie", locale="fr")
    first, line = await left_during_the_upload(fake, clock, president, marie, monkeypatch)
    table = table_of(president, marie)
    for _ in range(30):
        await tick(fake, clock, 1)
    assert injected(fake) == [502] * 4 + [0]
    left = message(marie, first)
    assert left.content.count(line) == 1 and left.attachments == ()
    assert table.charts_off == []
    waits.end()
    fake.assert_no_errors()


async def test_a_failed_take_off_is_tried_again(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The edit taking the picture off meets a 503: it was not tried again, and the
    results showed the chart twice for good. It is, 5 s later."""
    record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    marie = fake.add_user("marie", locale="fr")
    first, line = await left_during_the_upload(fake, clock, president, marie, monkeypatch)
    table = table_of(president, marie)
    fake.inject_error(EDIT, 503, method="PATCH")  # the next edit: the take-off
    for _ in range(16):
        await tick(fake, clock, 1)
    assert injected(fake) == [502] * 4 + [0, 503]
    assert message(marie, first).attachments == (chart.FILENAME,)
    assert table.charts_off == [first]
    await tick(fake, clock, RETRY_DELAYS[0])
    left = message(marie, first)
    assert left.content.count(line) == 1 and left.attachments == ()
    assert table.charts_off == []
    waits.end()
    fake.assert_no_errors()


async def test_a_restart_takes_off_the_picture_owed(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The take-off failed and the bot restarted before trying again: what was owed was in
    memory only, and the results kept the chart twice. The table's snapshot keeps it
    (`Table.charts_off`): the restart takes the picture off, once."""
    record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    first, line = await left_during_the_upload(fake, clock, bot, marie, monkeypatch)
    fake.inject_error(EDIT, 503, method="PATCH")
    for _ in range(16):
        await tick(fake, clock, 1)
    assert injected(fake) == [502] * 4 + [0, 503]
    assert message(marie, first).attachments == (chart.FILENAME,)
    waits.end()
    bot = await restart(fake, clock, bot, url)
    try:
        left = message(marie, first)
        assert left.content.count(line) == 1 and left.attachments == ()
        assert table_of(bot, marie).charts_off == []
        bot = await restart(fake, clock, bot, url)
        mark = fake.mark()
        await tick(fake, clock, 10)
        assert table_of(bot, marie).charts_off == []
        assert not [c for c in fake.calls_since(mark, EDIT) if c.path.endswith(str(first))]
    finally:
        await fake.disconnect(bot)
    fake.assert_no_errors()


def resumes(hand_buttons: list[str | None]) -> bool:
    return any(custom_id and ":resume:" in custom_id for custom_id in hand_buttons)


@pytest.mark.parametrize(("game_end", "open_round"), [
    (GameEnd("unlimited"), True), (GameEnd("target", 3), True), (GameEnd("target", 4), False),
])
@pytest.mark.parametrize("locale", LOCALES)
async def test_a_seat_out_on_autopilot_reads_the_next_round_as_the_rules_know_it(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str,
    game_end: GameEnd, open_round: bool,
) -> None:
    """marie went out first on autopilot (3 points as Président). Her hand read « Le pilote
    automatique jouera pour toi à la prochaine manche », which an unlimited game's host ends
    between rounds, and a target of 3 ends at this round's end: « si la partie continue »
    there. A target of 4, out of anyone's reach this round, has its next round."""
    marie, _, game = await out_on_autopilot(fake, clock, president, locale, game_end=game_end)
    lines = marie.hand.content.split("\n")
    said = t(locale, "hand.autopilot_next_if" if open_round else "hand.autopilot_next")
    assert said in lines and resumes([b.custom_id for b in marie.hand.buttons])
    if open_round:
        assert t(locale, "hand.autopilot_next") not in lines
        if locale == "fr":
            assert said == french("🤖 Si la partie continue, le pilote automatique jouera "
                                  "pour toi à la prochaine manche. Appuie sur **Reprendre** "
                                  "pour la jouer toi-même.")
        else:
            assert said == ("🤖 If the game goes on, the autopilot will play for you next "
                            "round. Press **Resume** to play it yourself.")
    if game_end.kind == "unlimited":  # between rounds, the host still to deal or end
        for _ in range(100):
            if game.phase is Phase.ROUND_OVER:
                break
            await tick(fake, clock, 1)
        await tick(fake, clock, 1)
        assert game.phase is Phase.ROUND_OVER
        assert said in marie.hand.content.split("\n")
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_seat_on_autopilot_sent_last_by_a_finish_penalty_reads_it_gives_its_seat_up(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str,
) -> None:
    """proletario, marie against three bots, four more waiting: her autopilot ends her
    hand on a 2, which sends her last (`finish_penalty` « two »), and the queue, longer than the
    bots seated, takes her seat at the deal (RULES §10). Until the round ended her hand
    read that the autopilot plays her next round, with « Reprendre »; it reads that she
    gives her seat up, as between rounds, with nothing to resume."""
    waiting = [fake.add_user(name, locale="fr") for name in ("eve", "paul", "lea", "max")]

    async def queued() -> None:
        for user in waiting:
            await user.slash("president join")

    marie = await penalised_on_autopilot(fake, clock, president, locale, queued)
    table = table_of(president, marie.user)
    game = table.game
    assert game is not None and game.phase is Phase.PLAY and game.penalised == [0]
    lines = marie.hand.content.split("\n")
    assert t(locale, "hand.steps_off", role="Proletario") in lines
    assert t(locale, "hand.autopilot_next_if") not in lines
    assert not resumes([b.custom_id for b in marie.hand.buttons])
    fake.assert_no_errors()


async def test_a_seat_sent_last_without_enough_waiting_keeps_its_autopilot_line(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
) -> None:
    """The same with nobody waiting: she keeps her seat, and the autopilot plays her next
    round if the (unlimited) game goes on."""
    async def nobody() -> None:
        return None

    marie = await penalised_on_autopilot(fake, clock, president, "fr", nobody)
    lines = marie.hand.content.split("\n")
    assert t("fr", "hand.autopilot_next_if") in lines
    assert t("fr", "hand.steps_off", role="Proletario") not in lines
    assert resumes([b.custom_id for b in marie.hand.buttons])
    fake.assert_no_errors()


async def penalised_on_autopilot(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                                 locale: str, meanwhile: Callable[[], Awaitable[None]],
                                 ) -> Player:
    """`out_on_autopilot` with a hand ended on a 2 sent last (`finish_penalty`, wild7's at
    proletario's table) and her last card a 2: the autopilot's play sends her last while
    the bots hold theirs."""
    marie, _, game = await out_on_autopilot(fake, clock, bot, locale, "2S", meanwhile,
                                            finish_penalty="two")
    assert game.penalised == [0]
    return marie


async def test_an_unreadable_table_s_word_posted_then_killed_is_posted_once(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """marie's table is stored in a state the next version cannot read (a rollback), its
    lobby deleted meanwhile: its word is a post. The process dies between the post and
    storing it as told (here: that write fails, as a kill leaves it unwritten). The next
    start said it again, a second post; it posts with the same nonce, which Discord
    enforces (Create Message, `enforce_nonce`), and gets the first post back. The start
    after says nothing."""
    url = database_url(tmp_path)
    channel, said = await posted_then_killed(fake, clock, url, monkeypatch, caplog)
    for _ in range(2):
        bot = await start(fake, clock, url)
        assert [m.content for m in fake.messages(channel)] == [said]
        await fake.disconnect(bot)
    fake.expect_error(errors.UNKNOWN_MESSAGE)  # the lobby, gone, at the second start too
    fake.assert_no_errors()


async def test_results_left_while_an_upload_met_a_gateway_timeout_show_the_chart_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The upload's last try was carried out but answered 504 (a gateway giving up on the
    server behind it): a server error was taken as Discord's refusal, nothing to take off,
    and the picture stayed beside the text the results were retired with, for good. A 5xx
    says nothing of whether the edit was done: the picture is taken off, as after a lost
    answer."""
    record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    marie = fake.add_user("marie", locale="fr")
    fake.inject_error(EDIT, 502, method="PATCH", uploads=True, times=4)
    fake.inject_error(EDIT, 504, method="PATCH", uploads=True, handled=True)
    table = await game_over_charted_late(fake, clock, president, marie, monkeypatch)
    first, game = table.table_message_id, table.game
    assert first is not None and game is not None
    await marie.click(results(marie, table), cid(table, "end", game.version))
    await tick(fake, clock, 5)
    assert table.game is None and table.charts_off == [first]
    line = chart_line(table)
    for _ in range(30):
        await tick(fake, clock, 1)
    assert injected(fake) == [502] * 4 + [504]
    left = message(marie, first)
    assert left.content.count(line) == 1 and left.attachments == ()
    assert table.charts_off == []
    waits.end()
    fake.assert_no_errors()
