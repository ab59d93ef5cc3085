"""`/president privacy` and `/president forget`: what the bot keeps about the player who asks,
and its erasure on every server once they confirm (`bot.storage.forget`, docs/privacy.md);
`/president forget-server`: a server's, for its admins.

Discord's Developer Terms of Service, section 5: « You will give users an easily accessible
way to ask for their API Data to be modified and deleted », and delete it promptly when
« the applicable user requests you delete it »:
https://support-dev.discord.com/hc/en-us/articles/8562894815383-Discord-Developer-Terms-of-Service
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import join_names, plural, t
from bot.languages import own_locale
from bot.packages.controls import NO_TABLE, button, standalone, view
from bot.packages.rules_text import pooled_name
from bot.packages.text import clipped, player_name, shown_text
from bot.storage.forget import GuildBusy
from bot.tables.service import TableError

if TYPE_CHECKING:
    from bot.packages.host import Host
    from bot.storage.records import GuildData, HeldData, KeptDetail
    from bot.storage.repository import Storage
    from bot.tables.table import Table

    Interaction = discord.Interaction[Host]

#: How long the question of /president forget may be answered, in seconds: it is a decision
#: of the moment, and an old question clicked by mistake days later must erase nothing.
ANSWER_WITHIN = 15 * 60
#: Discord ids and Unix times fit in 20 digits (a custom_id field's bound, `controls`).
_DIGITS = 20
#: The servers `/president privacy` details, and the length a server's name is cut to:
#: five servers of four ratings each, names at their longest and made of markdown that
#: escaping doubles, fit an embed's 4,096 characters beside the rest
#: (`tests/bot/test_e2e_privacy_dm.py`; six did not, in French: 4,282, stop 50's review).
SERVERS_SHOWN = 5
SERVER_NAME_LENGTH = 40


def erased_name(locale: object) -> str:
    """What an erased player's seat is called in history and charts, in the reader's
    language."""
    return t(locale, "privacy.erased_name")


def _storage(interaction: discord.Interaction[Any]) -> Storage:
    storage: Storage | None = interaction.client.storage
    if storage is None:
        raise TableError("err.no_storage")
    return storage


def summary(locale: object, held: HeldData) -> str:
    """What is held, as « your name, your language, 2 games, 5 rounds and 1 rating »: the
    counts that are not zero."""
    parts = [t(locale, "privacy.your_name")] if held.named else []
    if held.language:
        parts.append(t(locale, "privacy.your_language"))
    for key, count in (("n.games", held.games), ("n.rounds", held.rounds),
                       ("n.ratings", held.ratings), ("n.hosted", held.hosted),
                       ("n.notices", held.notices)):
        if count:
            parts.append(plural(locale, key, count))
    return join_names(locale, parts)


def detail(locale: object, kept: KeptDetail, servers: Mapping[int, str]) -> list[str]:
    """What `summary` counts, as its owner reads it: the name kept, the language chosen,
    their seats' names, and per server their games and rounds and each rating
    (`/president stats`' figure); at most `SERVERS_SHOWN` servers, so that the answer
    fits an embed. A server is named as it is now where the bot is still on it
    (`servers`, its name by id: a DM has no server to call « here »), else by its id: no
    server's name is stored."""
    lines = []
    if kept.name is not None:
        lines.append(t(locale, "privacy.name_kept", name=player_name(kept.name)))
    if kept.language is not None:
        lines.append(t(locale, "privacy.language_kept",
                       language=t(locale, f"language.name.{kept.language}")))
        if kept.client_locale is not None:
            lines.append(t(locale, "privacy.client_kept",
                           client=shown_text(kept.client_locale)))
    if kept.seat_names:
        lines.append(t(locale, "privacy.seat_names", names=join_names(
            locale, [player_name(name) for name in kept.seat_names])))
    for server in kept.servers[:SERVERS_SHOWN]:
        counts = [plural(locale, key, count) for key, count in (
            ("n.games", server.games), ("n.rounds", server.rounds)) if count]
        name = servers.get(server.guild_id)
        shown = t(locale, "privacy.server_gone", id=server.guild_id) if name is None else \
            f"**{shown_text(clipped(name, SERVER_NAME_LENGTH))}**"
        lines.append(t(locale, "privacy.server", server=shown,
                       counts=join_names(locale, counts)))
        lines += [t(locale, "privacy.rating", preset=pooled_name(locale, rating.preset),
                    rating=rating.rating, rounds=plural(locale, "n.rated", rating.rounds))
                  for rating in server.ratings]
    if len(kept.servers) > SERVERS_SHOWN:
        lines.append(plural(locale, "privacy.more_servers", len(kept.servers) - SERVERS_SHOWN))
    return lines


def answer(locale: object, held: HeldData, kept: KeptDetail | None,
           servers: Mapping[int, str]) -> str:
    """`privacy`'s text: what is kept about anyone, about the asker (`kept`, None where
    nothing is), and how to erase it."""
    now = t(locale, "privacy.now_none") if kept is None else "\n".join(
        [t(locale, "privacy.now", summary=summary(locale, held)),
         *detail(locale, kept, servers)])
    return "\n\n".join([t(locale, "privacy.kept"), now,
                         t(locale, "privacy.erase", erased=erased_name(locale))])


async def privacy(interaction: Interaction) -> None:
    """The list of what is kept about anyone (bot/storage/models.py, table by table), what
    is kept about the asker now, in detail, and how to erase it: `/president privacy` on a
    server, `/privacy` in a DM with the bot (`privacy.direct`)."""
    storage = _storage(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = own_locale(interaction)
    held = await storage.held_about(interaction.user.id)
    kept = None if held.empty else await storage.kept_about(interaction.user.id)
    servers = {} if kept is None else {
        server.guild_id: guild.name for server in kept.servers
        if (guild := interaction.client.get_guild(server.guild_id)) is not None}
    embed = discord.Embed(title=t(locale, "privacy.title"),
                          description=answer(locale, held, kept, servers))
    await interaction.followup.send(embed=embed, ephemeral=True)


def _seated(interaction: Interaction) -> None:
    """Refuse while the user is at an open table of this process (seated, waiting for a
    seat, a presi leaver who may still come back, or its host): its saved state holds them
    and would store them again at its next round. They are told where, on this server.
    Refuse too while a table's result naming them waits to be stored (the database
    failing): stored after the erasure, it would record them again."""
    user_id = interaction.user.id
    open_tables = [table for table in interaction.client.service.registry.tables()
                   if not table.closed]
    tables: list[Table] = [
        table for table in open_tables
        if table.player(user_id) is not None or table.is_host(user_id) or user_id in table.away]
    _refuse_at(interaction, [(table.guild_id, table.channel_id) for table in tables])
    if any(table.holds_results_of(user_id) for table in open_tables):
        raise TableError("err.forget_storing")


def _refuse_at(interaction: Interaction, tables: Sequence[tuple[int | None, int]],
               key: str = "err.forget_seated") -> None:
    """Refuse with `key` if any of these (server, channel) tables holds the user, naming
    this server's channels (`key` + « _elsewhere » where none is here; + « _dm » from a DM
    with the bot, `privacy.direct`, where no server is « here »)."""
    here = sorted(channel for guild, channel in tables if guild == interaction.guild_id)
    if here:
        raise TableError(key, channels=join_names(
            interaction.locale, [f"<#{channel}>" for channel in here]))
    if tables:
        raise TableError(key + ("_dm" if interaction.guild_id is None else "_elsewhere"))


async def _in_saved_tables(interaction: Interaction, storage: Storage) -> None:
    """Refuse where the saved state of an open table names the user: one another process
    of a sharded deployment runs (docs/deploy.md), which `_seated` cannot see, or one that
    still shows the seat they left in its finished game's standings."""
    _refuse_at(interaction, await storage.open_tables_holding(interaction.user.id),
               "err.forget_held")


async def forget(interaction: Interaction) -> None:
    """Ask before erasing: two buttons on a private answer, naming the asker and the moment
    asked, so that nobody else's click and no stale click erases anything."""
    storage = _storage(interaction)
    _seated(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await _in_saved_tables(interaction, storage)
    locale = interaction.locale
    held = await storage.held_about(interaction.user.id)
    if held.empty:
        await interaction.followup.send(t(locale, "forget.nothing"), ephemeral=True)
        return
    await interaction.followup.send(
        t(locale, "forget.confirm", summary=summary(locale, held),
          erased=erased_name(locale)), view=_question(interaction, "forget"), ephemeral=True)


def _question(interaction: Interaction, erase: str) -> discord.ui.View:
    """Cancel, or erase with the `erase` action: both buttons name the asker, and erasing
    the moment asked, so that nobody else's click and no stale click erases anything."""
    locale, user = interaction.locale, interaction.user.id
    asked = int(interaction.client.service.clock.now())
    return view(
        button(NO_TABLE, "forget_cancel", t(locale, "btn.forget_cancel"), arg=str(user)),
        button(NO_TABLE, erase, t(locale, "btn.forget"), arg=f"{user}.{asked}",
               style=discord.ButtonStyle.danger))


def _digits(text: str) -> int:
    """A Discord id or a time carried in the button's arg: ASCII digits (`controls.number`
    stops at nine, below a snowflake), else the button was forged."""
    if not text or len(text) > _DIGITS or not all("0" <= ch <= "9" for ch in text):
        raise TableError("err.unknown_control")
    return int(text)


def _asker(interaction: discord.Interaction[Any], arg: str) -> None:
    """The button's asker must be the clicker: a forged or shared click erases nobody."""
    if _digits(arg) != interaction.user.id:
        raise TableError("err.forget_not_yours")


@standalone("forget", open_in_timeout=True)
async def confirmed(interaction: discord.Interaction[Any], arg: str, values: list[str]) -> None:
    """Erase, and say what went in place of the question (its buttons go with it)."""
    user, _, asked = arg.partition(".")
    if values:  # a button carries no values: a forged select
        raise TableError("err.unknown_control")
    _asker(interaction, user)
    if interaction.client.service.clock.now() - _digits(asked) > ANSWER_WITHIN:
        raise TableError("err.forget_expired")
    _seated(interaction)  # they may have sat down since they were asked
    storage = _storage(interaction)
    # A component's deferral acknowledges without a new message (DEFERRED_UPDATE_MESSAGE);
    # the edit then replaces the question on the message that holds the buttons:
    # https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type
    await interaction.response.defer()
    # A table that closed a moment ago may still be storing its last results, which name
    # them: erased first, they would be recorded again.
    await interaction.client.service.stored_so_far()
    await _in_saved_tables(interaction, storage)
    erased = await storage.forget_user(interaction.user.id)
    interaction.client.languages.forget(interaction.user.id)
    interaction.client.service.vanished.forget(interaction.user.id)
    interaction.client.service.asleep.forget(interaction.user.id)
    locale = interaction.locale
    text = t(locale, "forget.nothing") if erased.empty else \
        t(locale, "forget.done", summary=summary(locale, erased), erased=erased_name(locale))
    await interaction.edit_original_response(content=text, view=None)


@standalone("forget_cancel", open_in_timeout=True)
async def cancelled(interaction: discord.Interaction[Any], arg: str, values: list[str]) -> None:
    """Nothing is erased; the question gives way to saying so (UPDATE_MESSAGE, same page)."""
    if values:
        raise TableError("err.unknown_control")
    _asker(interaction, arg)
    await interaction.response.edit_message(content=t(interaction.locale, "forget.cancelled"),
                                            view=None)


# ---------------------------------------------------------------------------- a whole server

def guild_summary(locale: object, held: GuildData) -> str:
    """What a server has stored, as « 3 tables, 5 games, 4 ratings and its settings »."""
    parts = [plural(locale, key, count) for key, count in (
        ("n.tables", held.tables), ("n.games", held.games), ("n.ratings", held.ratings),
        ("n.notices", held.notices)) if count]
    if held.settings:
        parts.append(t(locale, "forget_server.settings"))
    return join_names(locale, parts)


def _may_erase_guild(interaction: discord.Interaction[Any]) -> int:
    """The server, if the member may erase it: Manage Server, read from the member's
    permissions the interaction carries (« Total permissions of the member in the channel,
    including overwrites », Guild Member Object,
    https://discord.com/developers/docs/resources/guild#guild-member-object), and no table
    of it open here (its state would be stored again; it names the channels)."""
    guild_id = interaction.guild_id
    if guild_id is None:
        raise TableError("err.channel_only")
    if not interaction.permissions.manage_guild:
        raise TableError("err.forget_server_forbidden")
    tables = [table for table in interaction.client.service.registry.in_guild(guild_id)
              if not table.closed]
    if tables:
        raise TableError("err.forget_server_open", channels=join_names(
            interaction.locale, [f"<#{table.channel_id}>" for table in tables]))
    return guild_id


async def forget_server(interaction: Interaction) -> None:
    """Ask an admin before erasing the server, as /president forget asks a player."""
    storage = _storage(interaction)
    guild_id = _may_erase_guild(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = interaction.locale
    held = await storage.held_by_guild(guild_id)
    if held.empty:
        await interaction.followup.send(t(locale, "forget_server.nothing"), ephemeral=True)
        return
    await interaction.followup.send(
        t(locale, "forget_server.confirm", summary=guild_summary(locale, held)),
        view=_question(interaction, "forget_guild"), ephemeral=True)


@standalone("forget_guild", open_in_timeout=True)
async def guild_confirmed(interaction: discord.Interaction[Any], arg: str,
                          values: list[str]) -> None:
    """Erase the server, checked again at the click: the admin may have lost the right, or
    a table opened, since the question."""
    user, _, asked = arg.partition(".")
    if values:
        raise TableError("err.unknown_control")
    _asker(interaction, user)
    if interaction.client.service.clock.now() - _digits(asked) > ANSWER_WITHIN:
        raise TableError("err.forget_expired")
    guild_id = _may_erase_guild(interaction)
    storage = _storage(interaction)
    await interaction.response.defer()
    await interaction.client.service.stored_so_far()  # the server's just-closed tables'
    try:
        erased = await storage.forget_guild(guild_id)
    except GuildBusy:  # opened by another process since (a shard elsewhere): nothing erased
        raise TableError("err.forget_server_busy") from None
    interaction.client.service.vanished.forget_guild(guild_id)
    interaction.client.service.asleep.forget_guild(guild_id)
    locale = interaction.locale
    text = t(locale, "forget_server.nothing") if erased.empty else \
        t(locale, "forget_server.done", summary=guild_summary(locale, erased))
    await interaction.edit_original_response(content=text, view=None)
