"""`/president stats`, `leaderboard` and `history`, read from the storage repository;
`history` offers each listed game's points chart, rebuilt from its stored rounds."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

import discord

from bot.graphemes import cut
from bot.i18n import LocaleLike, join_names, plural, t
from bot.languages import own_locale
from bot.names import shortened
from bot.packages.controls import NO_TABLE, button, here, number, select, standalone, view
from bot.packages.game import chart
from bot.packages.privacy.views import erased_name
from bot.packages.rules_text import played_name, pooled_name
from bot.packages.screen import EMBED_DESCRIPTION
from bot.packages.stats.members import ASKED_MOST
from bot.packages.text import clipped, player_name, shown_text, unescaped
from bot.storage.forget import erased
from bot.tables import house
from bot.tables.house import DEFAULT_PRESET
from bot.tables.service import TableError
from engine import PRESETS, Rules
from engine.rules import ROLE_CODES

if TYPE_CHECKING:
    from bot.packages.host import Host
    from bot.storage.records import Leaderboard, PlayerStats
    from bot.storage.repository import Storage

    Interaction = discord.Interaction[Host]


def _storage(interaction: Interaction) -> Storage:
    storage: Storage | None = interaction.client.storage
    if storage is None or interaction.guild_id is None:
        raise TableError("err.no_storage")
    return storage


#: How long, in seconds of the bot's clock, statistics wait for the server's results not
#: yet stored before they read what is (`_acknowledge`).
STORED_WAIT = 5.0


async def _acknowledge(interaction: Interaction) -> None:
    """Statistics read the database: acknowledge first so a slow query never times out.
    Then wait, `STORED_WAIT` at most, for the results this server's tables announced and
    have not stored yet: a results message is drawn before its round is in the database
    (`bot.tables.outbox`), and a player who read it and asked at once, the database slow,
    was told « bob has not played on this server yet » (play-test 34)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    assert interaction.guild_id is not None
    owed = interaction.client.service.outbox.owed_results(interaction.guild_id)
    if not owed:
        return
    clock = interaction.client.service.clock
    stored = asyncio.ensure_future(asyncio.wait(owed))  # never cancels the storage work
    bound = asyncio.ensure_future(clock.sleep_until(clock.now() + STORED_WAIT))
    await asyncio.wait((stored, bound), return_when=asyncio.FIRST_COMPLETED)
    stored.cancel()
    bound.cancel()


async def _answer(interaction: Interaction, title: str, lines: list[str],
                  image: discord.File | None = None,
                  controls: discord.ui.View | None = None, footer: str | None = None) -> None:
    embed = discord.Embed(title=title, description=cut("\n".join(lines), EMBED_DESCRIPTION))
    if footer is not None:
        embed.set_footer(text=footer)
    if image is None:
        await _send(interaction, embed, controls)
        return
    embed.set_image(url=f"attachment://{image.filename}")
    await interaction.followup.send(embed=embed, file=image, ephemeral=True)


async def _send(interaction: Interaction, embed: discord.Embed,
                controls: discord.ui.View | None) -> None:
    """The embed, privately, with its controls where it has any (discord.py takes no view
    as a view left out, not as None)."""
    if controls is None:
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.followup.send(embed=embed, view=controls, ephemeral=True)


def _preset_lines(locale: str, record: PlayerStats) -> list[str]:
    """Per preset played: its rating (once rated) and how often each of its roles, under the
    preset's own names, came to the member: a Culo in presi is not a Trou du cul."""
    rated = {r.preset: r for r in record.ratings}
    lines = []
    for played in record.roles:
        name = pooled_name(locale, played.preset)
        rounds = plural(locale, "n.rounds", played.rounds)
        rating = rated.get(played.preset)
        # The rounds counted in the rating (those with two humans) apart: the leaderboard
        # shows those, and a round among bots is still a round played.
        lines.append(t(locale, "stats.preset_unrated", preset=name, rounds=rounds)
                     if rating is None else
                     t(locale, "stats.preset_rated", preset=name, rounds=rounds,
                       rating=rating.rating, rated=plural(locale, "n.rated", rating.rounds)))
        names = Rules.preset(played.preset).role_names if played.preset in PRESETS else "classic"
        counts = [t(locale, "stats.role_count", role=t(locale, f"role.{names}.{code}"),
                    n=played.roles[code]) for code in ROLE_CODES if played.roles.get(code)]
        if counts:
            lines.append(" · ".join(counts))
    return lines


def record_lines(locale: str, record: PlayerStats, alt: str | None = None) -> list[str]:
    """A member's record as /president stats shows it, ending with their rating chart's
    `alt` text where the chart cannot be attached. Its length is bounded (one line, two per
    preset, an alt text of at most `chart.MAX_ALT`), so it always fits an embed whole:
    `tests/bot/test_stats_fit.py` measures the worst case."""
    games = plural(locale, "n.games", record.games)
    if record.cancelled:  # as the history lists them: beside the games, not among them
        games = plural(locale, "n.games_cancelled", record.cancelled, games=games)
    counts = {"games": games,
              "wins": plural(locale, "n.wins", record.wins),
              "rounds": plural(locale, "n.rounds", record.rounds)}
    if len(record.ratings) == 1:
        line = t(locale, "stats.line", rating=record.ratings[0].rating, **counts)
    elif record.ratings:  # one rating per preset: the summary names whose is shown
        best = max(record.ratings, key=lambda r: r.rating)
        line = t(locale, "stats.line_best", rating=best.rating,
                 preset=pooled_name(locale, best.preset), **counts)
    else:  # no round with two humans yet: a rating of 0 would read as a verdict
        line = t(locale, "stats.line_unrated", **counts)
    return [line, *_preset_lines(locale, record), *([shown_text(alt)] if alt else [])]


async def stats(interaction: Interaction, member: discord.abc.User) -> None:
    storage = _storage(interaction)
    await _acknowledge(interaction)
    locale = str(interaction.locale)
    assert interaction.guild_id is not None
    record = await storage.player_stats(interaction.guild_id, member.id)
    # The name Discord gives the member here and now: the stored one is the last seen on
    # any server (a nickname elsewhere, or a name changed since their last game).
    name = player_name(str(getattr(member, "display_name", None) or member.name))
    if record.rounds == 0:
        await _answer(interaction, t(locale, "stats.title", name=name),
                      [t(locale, "stats.none", name=name)])
        return
    history = await storage.rating_history(interaction.guild_id, member.id)
    shown = chart.rating_chart(locale, name, history)
    image = None if shown is None else await _image(interaction, shown, chart.RATING_FILENAME)
    alt = shown.alt if shown is not None and image is None else None
    await _answer(interaction, t(locale, "stats.title", name=name),
                  record_lines(locale, record, alt), image,
                  footer=t(locale, "rating.how") if record.ratings else None)


async def _image(interaction: Interaction, shown: chart.PointsChart,
                 filename: str) -> discord.File | None:
    """The chart to attach, or None where the interaction says the bot may not attach files
    (its alt text, every value, then stands for it). Discord's docs do not say a private
    answer needs Attach Files (see fakediscord/interactions.py), but they report it in
    `app_permissions`: heeding it risks no refusal, and draws nothing for nothing."""
    if not interaction.app_permissions.attach_files:
        return None
    return await interaction.client.publisher.charts.draw(shown, filename)


async def leaderboard(interaction: Interaction, preset: str | None) -> None:
    storage = _storage(interaction)
    await _acknowledge(interaction)
    locale = str(interaction.locale)
    assert interaction.guild_id is not None
    chosen = (preset or await house_preset(interaction, storage)
              or await _last_played(storage, interaction) or DEFAULT_PRESET)
    board, best = await members_board(interaction, storage, chosen)
    await _answer(interaction, t(locale, "leaderboard.title",
                                 preset=pooled_name(locale, chosen)),
                  board_lines(locale, board, best=best),
                  footer=t(locale, "rating.how") if board.rows else None)


async def _last_played(storage: Storage, interaction: Interaction) -> str | None:
    """The preset of the last game that ended in this channel, where it has no table now:
    a tournament's presi table closed for the night (its host ended it, or it sat idle),
    and « the » leaderboard asked there was classic's (play-test 34)."""
    if interaction.channel_id is None:
        return None
    last = await storage.game_history(channel_id=interaction.channel_id, limit=1)
    return last[0].preset if last and last[0].preset in PRESETS else None


async def house_preset(interaction: Interaction, storage: Storage) -> str | None:
    """The preset of the channel's house rules kept last (play-test 33): with no table in
    the channel, the regulars asking for « the » leaderboard mean the one they play."""
    if interaction.channel_id is None:
        return None
    channel, thread = house.places_of(interaction.channel_id,
                                      getattr(interaction.channel, "parent_id", None))
    stored = await storage.house_rules(channel, thread_id=thread)
    kept = None if stored is None else stored.get("preset")
    return kept if isinstance(kept, str) and kept in PRESETS else None


async def members_board(interaction: Interaction, storage: Storage,
                        preset: str) -> tuple[Leaderboard, int | None]:
    """The server's leaderboard among its members now (`stats.members`): the rows shown
    whose membership the bot does not know are asked of Discord, one call each; each one
    found gone is left out and the board read again, letting the next rated member up, at
    most `members.ASKED_MOST` asked in all. The caller is a member (they typed it here).

    A caller below the top is numbered counting everyone ranked ahead of them: those not
    shown are asked too when all of them fit in what is left of the asks (`Leaderboard.
    ahead`), so the number is right; else none is (asking some would not make it right),
    and the number is said to be about that (stop 51), with the best it may be (stop 52).
    Returns the board and, where the caller's number is only about right, that best."""
    guild_id = interaction.guild_id
    assert guild_id is not None
    members = interaction.client.members
    members.present(guild_id, interaction.user.id)
    guild = interaction.client.get_guild(guild_id)
    # Asked for this board: one whose answer failed stays unknown, and is not asked again
    # each time a row found gone makes the board read anew (stop 50's review).
    asked: set[int] = set()

    def unknown_of(users: Iterable[int]) -> list[int]:
        return [user for user in users
                if members.known(guild_id, user) is None and user not in asked]

    def about(board: Leaderboard) -> int | None:
        """Where the caller's number counts some ranked ahead not known to be members, the
        best it may be: each of them gone (stop 52). Those strictly ahead are the rows
        shown (as members) and the others, of whom those not known to be members count
        once each; asked or not, so that the range holds where `ahead` is cut short."""
        caller = board.caller
        if caller is None or (board.ahead_all and all(members.known(guild_id, user)
                                                      for user in board.ahead)):
            return None
        shown = sum(1 for row in board.rows if row.rank < caller.rank)
        checked = sum(1 for user in board.ahead if members.known(guild_id, user))
        return shown + checked + 1

    while True:
        board = await storage.leaderboard(guild_id, preset, caller_id=interaction.user.id,
                                          absent=members.gone_from(guild_id),
                                          ahead_most=ASKED_MOST)
        unknown = unknown_of(row.user_id for row in board.rows)
        ahead = unknown_of(board.ahead)
        if board.ahead_all and len(unknown) + len(ahead) <= ASKED_MOST - len(asked):
            unknown += ahead
        if guild is None or not unknown or len(asked) >= ASKED_MOST:
            return board, about(board)
        unknown = unknown[:ASKED_MOST - len(asked)]
        asked.update(unknown)
        await members.ask(guild, unknown, interaction.client.budget)
        if all(members.known(guild_id, user) is not False for user in unknown):
            # Every one asked is a member (or could not be told): the board as read.
            return board, about(board)


def board_lines(locale: str, board: Leaderboard, *, best: int | None = None) -> list[str]:
    """The leaderboard's lines: at most its top rows and the caller's, each of numbers and a
    mention (never a name), so it always fits an embed whole (`tests/bot/test_stats_fit.py`).
    `best`: the caller's number counts some ranked ahead whom the bot has not asked about,
    and could be as good as `best` (`members_board`): the line gives the range and says
    why."""
    rows = [(row, "leaderboard.line") for row in board.rows]
    if board.caller:
        about = best is not None and best < board.caller.rank
        rows.append((board.caller, "leaderboard.line_about" if about else "leaderboard.line"))
    return [t(locale, key, rank=row.rank, best=best, user=row.user_id, rating=row.rating,
              rounds=plural(locale, "n.rated", row.rounds))
            for row, key in rows] or [t(locale, "leaderboard.empty",
                                        preset=pooled_name(locale, board.preset))]


#: Games per page of /president history, and the deepest page its buttons may name: a
#: channel's thousand latest games, the rest being older than anyone looks for.
HISTORY_PAGE = 10
HISTORY_PAGES = 100


async def history(interaction: Interaction) -> None:
    storage = _storage(interaction)
    await _acknowledge(interaction)
    embed, controls = await _history_page(storage, interaction, 0)
    await _send(interaction, embed, controls)


@standalone("history_page")
async def history_page(interaction: discord.Interaction[Any], arg: str,
                       values: list[str]) -> None:
    """Newer or older games, in place of the page shown (only its asker sees it)."""
    storage = _storage(interaction)
    page = number(arg, HISTORY_PAGES)
    if values:  # a button carries no values: a forged select
        raise TableError("err.unknown_control")
    # A component's deferral acknowledges without a new message (DEFERRED_UPDATE_MESSAGE);
    # the edit then replaces the page on the message that holds the button:
    # https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type
    await interaction.response.defer()
    embed, controls = await _history_page(storage, interaction, page)
    await interaction.edit_original_response(embed=embed, view=controls)


async def _history_page(storage: Storage, interaction: Interaction,
                        page: int) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` (0: the newest games): one line per game, a menu of their charts,
    and buttons to the newer and older pages that exist."""
    locale = str(interaction.locale)
    found = await storage.game_history(channel_id=interaction.channel_id,
                                       limit=HISTORY_PAGE + 1, offset=page * HISTORY_PAGE)
    games, older = found[:HISTORY_PAGE], len(found) > HISTORY_PAGE and page + 1 < HISTORY_PAGES
    rows: list[HistoryRow] = []
    options = []
    # Each game by its number in the channel, which it keeps as newer games end (numbered
    # from the newest, « 1. » was another game after each one): a night's games of one
    # preset and length read alike, and the menu tells them apart by it (play-test 14).
    for game in games:
        # Stored as messages show them, escaped; an erased player's seat has no name left.
        names = [erased_name(locale) if erased(w.user_id, w.is_bot, w.name)
                 else f"🤖 {w.name}" if w.is_bot else w.name for w in game.winners]
        ended = game.ended_at or game.started_at
        preset = played_name(locale, game.preset, game.rules)
        rounds = plural(locale, "n.rounds", game.rounds)
        rows.append(HistoryRow(game.number, discord.utils.format_dt(ended, "f"), preset,
                               rounds, names, game.cancelled))
        if game.rounds:  # a game stopped before its first round ended has no chart
            # A label is plain text: no Discord timestamp, so no date in the reader's time
            # zone. A date of the bot's (UTC) disagreed with the line's for a game late at
            # night; the number is the line's, which shows the date and time.
            options.append(discord.SelectOption(
                label=cut(t(locale, "history.option", number=game.number, preset=preset,
                            rounds=rounds), 100),
                value=str(game.game_id),
                description=clipped(_won(locale, [unescaped(name) for name in names],
                                         game.cancelled),
                                    100)))  # Discord's longest option description
    items: list[discord.ui.Item[Any]] = []
    if options:
        items.append(select(NO_TABLE, "past_chart", t(locale, "history.pick"), options, row=0))
    if page > 0:
        items.append(button(NO_TABLE, "history_page", t(locale, "btn.history_newer"),
                            arg=str(page - 1), row=1))
    if older:
        items.append(button(NO_TABLE, "history_page", t(locale, "btn.history_older"),
                            arg=str(page + 1), row=1))
    # Private: an empty page names `/president history` as the asker's client lists it.
    text = (_page_text(locale, rows) if rows
            else await _nothing_here(storage, interaction, own_locale(interaction), page))
    embed = discord.Embed(title=t(locale, here(interaction, "history.title")), description=text)
    if page > 0 or older:
        embed.set_footer(text=t(locale, "history.page", page=page + 1))
    return embed, view(*items) if items else None


async def _nothing_here(storage: Storage, interaction: Interaction, locale: LocaleLike,
                        page: int) -> str:
    """An empty page. In a thread under a table's channel, where players talk between
    games, « no game here » read as if the table's games were lost (play-test 34): it
    points to the channel, whose history they are. So too once that table has closed for
    the night, if the channel has games (one read of one row, only for an empty first page
    in a thread): a closed table's games are the channel's as an open one's are."""
    parent = getattr(interaction.channel, "parent_id", None)
    if page == 0 and isinstance(parent, int) and (
            interaction.client.service.registry.in_channel(parent) is not None
            or await storage.game_history(channel_id=parent, limit=1)):
        return t(locale, "history.empty.parent", channel=f"<#{parent}>")
    return t(locale, "history.empty" if page == 0 else "history.no_more")


class HistoryRow(NamedTuple):
    """One past game's line on a history page, its parts as shown."""

    number: int
    date: str
    preset: str
    rounds: str
    winners: list[str]
    cancelled: bool


def _page_text(locale: str, rows: list[HistoryRow]) -> str:
    """The page's lines within an embed's description. Ten games of up to eight joint
    winners, each of a long escaped name, overrun it, and Discord would refuse the page (cut
    to fit, it stopped mid-name, the last games gone): every name longer than a common
    length is shortened with « … » instead, at the longest length that lets the page fit,
    so each game and each of its winners still shows."""
    def text(longest: int | None) -> str:
        return "\n".join(t(locale, "history.line", number=row.number, date=row.date,
                           preset=row.preset,
                           rounds=row.rounds, winners=_won(locale, [
                               name if longest is None else shortened(name, longest)
                               for name in row.winners], row.cancelled)) for row in rows)

    whole = text(None)
    if len(whole) <= EMBED_DESCRIPTION:
        return whole
    low, high = 1, max(len(name) for row in rows for name in row.winners)
    while low < high:  # the longest length that fits; one character always does
        middle = (low + high + 1) // 2
        if len(text(middle)) <= EMBED_DESCRIPTION:
            low = middle
        else:
            high = middle - 1
    return text(low)


def _won(locale: str, names: list[str], cancelled: bool) -> str:
    """Who won a past game; a game stopped with nobody ahead has no winner to name, and
    says so, as its table did, and a cancelled one says it was (RULES §10, no result). A
    menu's option is plain text, no markdown: it is given the names as typed, the embed's
    line the names escaped."""
    if cancelled:
        return t(locale, "history.cancelled")
    if not names:
        return t(locale, "history.no_winner")
    return plural(locale, "history.winners", len(names), names=join_names(locale, names))


@standalone("past_chart")
async def past_chart(interaction: discord.Interaction[Any], arg: str, values: list[str]) -> None:
    """A past game's points chart, for the one who picked it, in their language."""
    storage = _storage(interaction)
    if len(values) != 1 or interaction.channel_id is None:
        raise TableError("err.unknown_control")
    game_id = number(values[0], 10**9)
    await _acknowledge(interaction)
    locale = str(interaction.locale)
    story = await storage.game_points(game_id, interaction.channel_id)
    if story is None:  # forged, or deleted since the list was shown
        await _answer(interaction, t(locale, here(interaction, "history.title")),
                      [t(locale, here(interaction, "history.gone"))])
        return
    names = tuple(erased_name(locale) if line in story.erased
                  else t(locale, "chart.stand_in_bot", name=name) if line in story.stand_ins
                  else name for line, name in enumerate(story.names))
    shown = chart.chart_of(locale, names, story.totals, seated=story.seated,
                           bots=dict.fromkeys(story.bots))
    image = await _image(interaction, shown, chart.FILENAME)
    preset = played_name(locale, story.preset, story.rules)
    # The alt text has every value: shown as the embed's line too, with the names escaped.
    await _answer(interaction, t(locale, "history.chart_title", preset=preset),
                  [shown_text(shown.alt)], image)
