"""Why a request is refused: `TableError` and the checks that raise it.

A refusal carries a catalogue key, so the Discord layer only has to translate it. The checks
here read the table and its game and change nothing; the ones that also note who acted stay
with the service.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import button_names, t
from bot.tables.table import Table
from engine import Event, Game, IllegalAction, Phase


class TableError(Exception):
    """A refused request; `key` and `params` make the sentence shown to the user."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    @classmethod
    def from_engine(cls, err: IllegalAction) -> TableError:
        return cls(f"engine.{err.code}", detail=str(err), **err.params)


def settings_open(table: Table) -> None:
    """The rules and the table's settings change in the lobby only. Once a game is over the
    refusal says the way there (« Terminer »), which a host may not think of while the
    finished game still shows. It names the buttons as the table message shows them, in
    the table's language: a host whose own language differs reads "**Terminer**" beside
    the button they are to press, not "**End game**"."""
    if table.game is None:
        return
    if table.game.phase is Phase.GAME_OVER:
        raise TableError("err.settings_after_game", end=t(table.locale, "btn.end_game"),
                         replay=t(table.locale, "btn.replay"))
    raise TableError("err.settings_locked")


def lobby_only(table: Table) -> None:
    """Bots are seated and removed in the lobby. « Wait for the game to end » cannot be
    followed where a game has no end but the host's (`game_end: unlimited`, proletario):
    the refusal says how it ends (« Terminer » between rounds, named as the table message
    shows it), and where bots fill the seats, that they already hold every seat without a
    person and give theirs up to the queue between rounds (RULES §10). Once the game is
    over it says the way back to the lobby, as `settings_open` does.

    Checked before whether the user may host, and said to anyone: a guest told only the
    host may, and when the role would be theirs to take, would then have been refused
    this (stop 60, as `settings_open` for the settings)."""
    if not table.running:
        return
    if table.game is not None and table.game.phase is Phase.GAME_OVER:
        raise TableError("err.bots_after_game", end=t(table.locale, "btn.end_game"))
    if table.rules.game_end.kind == "unlimited":
        key = "err.game_running_unlimited" + ("_bots" if table.rules.bots_fill else "")
        raise TableError(key, end=t(table.locale, "btn.end_game"))
    raise TableError("err.game_running")


def not_started(table: Table, by: int) -> None:
    """A start once the game runs: most often the host's own second click on « Lancer »,
    told « wait for the game to end » on a streamer's screen (play-test 14). The game is
    theirs already: say so, and where their hand is (the button named as the table shows
    it, `settings_open`); to one without a seat, who holds no hand, that a game is on.

    Checked before whether `by` may host, and said to anyone, as `lobby_only` is."""
    if table.game is not None and table.game.phase is Phase.GAME_OVER:
        # Its results shown, « Rejouer » or « Terminer » come next, not the hand.
        raise TableError("err.start_after_game", **button_names(table.locale))
    if table.running and table.seat_of(by) is None:
        unseated(table, by)
    if table.running:
        raise TableError("err.already_started", hand=t(table.locale, "btn.my_hand"))


def unseated(table: Table, by: int) -> None:
    """A start by one without a seat while a game runs. « Wait for it to end » cannot be
    followed where the game has no end but the host's (`game_end: unlimited`): the refusal
    says how it ends and what they can do meanwhile: take back the seat they left this
    round (`/president rejoindre` before its end), else ask for one (« Rejoindre » on the
    table message, or the command; `Seating.join` seats them at a deal or in the next
    game), unless they already wait for one (play-test 44's leftovers)."""
    if table.rules.game_end.kind != "unlimited":
        raise TableError("err.game_running")
    end = t(table.locale, "btn.end_game")
    if table.queued(by):
        raise TableError("err.start_unlimited_waiting", end=end)
    if table.left_seat(by) is not None:
        raise TableError("err.start_unlimited_back", end=end)
    raise TableError("err.start_unlimited", end=end, join=t(table.locale, "btn.join"))


def not_paused(table: Table) -> None:
    """Nothing is played during the host's break (`bot.tables.breaks`): a move, a gift, a
    new round are refused, naming who called it and the button that ends it."""
    if table.pause is not None:
        # A player's own break ends by itself, or sooner by them or the host (stop 50).
        raise TableError("err.paused_own" if table.pause.own else "err.paused",
                         name=table.pause.name, button=t(table.locale, "btn.play_on"))


def game_of(table: Table) -> Game:
    if table.game is None:
        raise TableError("err.no_game")
    return table.game


def late_host_button(table: Table, version: int | None) -> None:
    """A host button drawn for an earlier state of the game is late whoever clicks it, and
    is said so before whether they may host: of two players pressing « Rejouer » for a
    quiet host, the second was told only the first (host now) may, though the game they
    asked for was dealt (play-test 23). Checked before the role is taken over, too. With
    no game left (the table went back to its lobby) every such button is late.

    At a round's or a game's end a seat may change before the host chooses (a player
    presses « Reprendre », leaves, sits): the version moves, the choice does not. A button
    drawn since that end (`Table.ended_version`) still means it (play-test 43:
    « Manche suivante » refused on the table's latest message as claire resumed)."""
    if version is None:
        return
    game = table.game
    if game is None:
        raise TableError("err.stale_button")
    if version == game.version or (game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
                                   and table.ended_version <= version < game.version):
        return
    raise TableError("err.stale_button")


def check_seen(table: Table, game: Game, seen: int, seat: int) -> None:
    """A hand control carries the version it was drawn for. Turn by turn it must be the
    current one; in fast mode an older one may still play or pass (the engine refuses it
    if the trick moved on since), but one that does not exist yet was forged.

    A late one says what beat it when that was the seat's own move (`Table.moved_from`):
    « the table has moved on » left a player who moved from two devices, or whose timer
    played as they chose, unsure whether their move counted (play-test 23)."""
    if seen > game.version or (not table.rules.fast and seen != game.version):
        raise TableError(late_move(table, game, seen, seat))


def late_move(table: Table, game: Game, seen: int, seat: int) -> str:
    """Why a play or pass drawn for version `seen` comes too late for `seat`: its own move
    from that version (a second device's click), its timer's, someone else's, or the host
    stopping the game (`Games.end`), which « the table has moved on » hid (play-test 23)."""
    if game.phase is Phase.GAME_OVER and game.stopped_early:
        return "err.game_stopped"
    mover = table.moved_from.get(seen) if seen < game.version else None
    if mover == (seat, False):
        return "err.already_played"
    if mover == (seat, True):
        return "err.timer_played"
    return "err.stale"


def check_round(game: Game, seen: int) -> None:
    """Gift controls carry the version they were drawn for too. Everyone gives at once,
    so any version of this round will do; one of an earlier round (or game) is a menu
    left on a player's screen, for other cards and another exchange."""
    if not game.round_version <= seen <= game.version:
        raise TableError("err.stale")


def check_given(table: Table, game: Game, seat: int) -> None:
    """A gift refused to a seat whose cards already went this round (its own gift from
    another device, or the timer's) says so: the engine's refusal (no exchange now,
    nothing to give) left the giver unsure their cards went (play-test 23)."""
    key = given_key(table, game, seat)
    if key is not None:
        raise TableError(key)


def given_key(table: Table, game: Game, seat: int) -> str | None:
    """Why a gift comes too late for a seat whose cards already went this round: the
    exchange's timer gave them (`Table.gave_late`), which « already given » read as if the
    giver had, like a turn the timer played (stop 47); or their own gift. None while they
    have not gone."""
    if not given(game, seat):
        return None
    return "err.timer_given" if table.gave_late(seat) else "err.already_given"


def given(game: Game, seat: int) -> bool:
    """Whether the seat's cards went to their receiver in this round's exchange, and the
    round is still on: once it is over, that the table moved on says more."""
    return game.phase in (Phase.EXCHANGE, Phase.PLAY) and \
        any(swap[0] == seat for swap in game.swaps)


def engine(action: Callable[[], list[Event]]) -> list[Event]:
    """Run an engine action; the engine's refusal becomes the table's."""
    try:
        return action()
    except IllegalAction as err:
        raise TableError.from_engine(err) from None


def verify(check: Callable[[], None]) -> None:
    """Ask the engine whether an action may be taken (its `verify_x`); its refusal
    becomes the table's, and nothing is changed either way."""
    try:
        check()
    except IllegalAction as err:
        raise TableError.from_engine(err) from None


def pass_(action: Callable[[], list[Event]]) -> list[Event]:
    """Run an engine pass. One the engine finds stale (fast mode: drawn for an earlier state
    of the trick) is told the table moved on, with the hand as it is now; the play's « too
    late: X played first » would not fit a pass, which holds no cards and may land on a
    trick nobody has played to yet."""
    try:
        return action()
    except IllegalAction as err:
        if err.code == "stale":
            raise TableError("err.stale") from None
        raise TableError.from_engine(err) from None
