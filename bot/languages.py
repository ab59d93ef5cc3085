"""The language each player chose for their own messages (`/president my-language`, or
`/my-language` in a DM with the bot; docs/bot.md « A language of one's own (stop 58) »),
applied to every interaction of theirs.

Every word of a player's own messages (hand, refusals, prompts, private answers) is chosen
from the interaction's `locale`, « Selected language of the invoking user » (discord-api-docs,
Interactions, Interaction Object), read in some ninety places, and a seat's or a hand's
language comes from it too (`TableService.heard`). So the choice is applied once, where the
interaction arrives and before any of its handlers runs (`PresidentBot.dispatch`:
discord.py's `parse_interaction_create` schedules the command's or the control's handler as a
task, then dispatches the « interaction » event at once, so the handler reads what this
left): its `locale` becomes the chosen language, the one Discord sent kept in `extras`. What a player
chose is held here in memory, read whole from storage at start (few players choose, and a
click must not wait on the database to find its words); a sharded process reads it again
now and then (`PresidentBot.reload_languages`, `read`), since a player may choose on a
server another process runs.

The commands a player's own message names follow the locale Discord sent, not the choice
(`own_locale`): Discord's command picker lists each under the name localized for the
client's locale (discord-api-docs, Application Commands, Localization).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord

from bot.i18n import LocaleLike, OwnLocale, lang

#: Where an interaction keeps the locale Discord sent, once a chosen one replaced it.
DISCORD_LOCALE = "president.discord_locale"
#: The locale a chosen language stands for: the catalogue's (`bot.i18n.lang`).
LOCALES = {"fr": discord.Locale.french, "en": discord.Locale.american_english}


class Languages:
    """Who chose which language, by user id; a player absent follows Discord's locale."""

    def __init__(self) -> None:
        self._chosen: dict[int, str] = {}
        # The choices made or erased here during each reading on its way (`read`).
        self._during: list[dict[int, str | None]] = []
        # The locale Discord last sent with an interaction of each player who chose (before
        # any here, the one stored with their choice): their hands' language once a reading
        # says they gave the choice up on another process's server, where nothing here
        # hears their Discord again until they act here.
        self._sent: dict[int, discord.Locale] = {}

    def load(self, chosen: Mapping[int, str], sent: Mapping[int, str]) -> None:
        """Take every stored choice (`Storage.player_languages`), replacing those held, and
        the locale Discord sent with each where it was kept (`Storage.client_locales`):
        what a player's hands go back to once a reading says they gave the choice up on
        another process's server, which a process started since their last interaction
        here would not know otherwise. One Discord sent here since is newer, and kept."""
        self._chosen = {user: language for user, language in chosen.items()
                        if language in LOCALES}
        for user_id, value in sent.items():
            locale = known_locale(value)
            if user_id in self._chosen and locale is not None:
                self._sent.setdefault(user_id, locale)

    async def read(self, stored: Callable[[], Awaitable[Mapping[int, str]]],
                   sent: Callable[[], Awaitable[Mapping[int, str]]]
                   ) -> dict[int, discord.Locale | None]:
        """`load` what `stored` and `sent` read, but for the choices made or erased here
        while their rows were on their way: those rows may predate them (read before the
        choice was stored, or the erasure), and would bring back for a whole reload
        interval a language the player just left, or one `/forget` just erased. The locale
        each player whose choice changed now speaks, by user id, for the caller to redraw
        their hands in it: the one chosen, or for a choice given up the one Discord last
        sent here, else the one stored with the choice; None where neither is known (the
        caller looks for the one their seats kept, `TableService.kept_client`)."""
        during: dict[int, str | None] = {}
        self._during.append(during)
        try:
            rows = await stored()
            locales = await sent()
        finally:
            self._during.remove(during)
        before = self._chosen
        self.load(rows, locales)
        for user_id, language in during.items():
            self._set(user_id, language)
        changed: dict[int, discord.Locale | None] = {}
        for user_id in before.keys() | self._chosen.keys():
            language = self._chosen.get(user_id)
            if before.get(user_id) != language:
                changed[user_id] = LOCALES[language] if language is not None \
                    else self._sent.get(user_id)
        self._sent = {user_id: sent for user_id, sent in self._sent.items()
                      if user_id in self._chosen}
        return changed

    def chosen(self, user_id: int) -> str | None:
        return self._chosen.get(user_id)

    def sent(self, user_id: int) -> discord.Locale | None:
        """The locale Discord last sent with an interaction of a player who chose, as
        `_sent` holds it; None for one who chose nothing, or whose Discord is not known."""
        return self._sent.get(user_id)

    def choose(self, user_id: int, language: str | None,
               sent: discord.Locale | None = None) -> None:
        """A choice just stored; None: back to Discord's locale. `sent`: the locale Discord
        sent with the command that chose, kept as `apply` keeps it: a player's first choice
        came with no choice yet to apply, and given up on another process's server before
        any other interaction here, nothing else would say what their hands go back to."""
        self._set(user_id, language)
        if language is not None and sent is not None:
            self._sent[user_id] = sent
        for during in self._during:
            during[user_id] = language

    def forget(self, user_id: int) -> None:
        """The player was erased (`/forget`): their choice went with the rest."""
        self.choose(user_id, None)

    def _set(self, user_id: int, language: str | None) -> None:
        if language is None:
            self._chosen.pop(user_id, None)
            self._sent.pop(user_id, None)
        else:
            self._chosen[user_id] = language

    def apply(self, interaction: discord.Interaction[Any]) -> None:
        """Before any handler reads it (`PresidentBot.dispatch`): its `locale` the user's
        chosen language, so that the ninety places choosing words from it follow the
        choice without each asking; the locale Discord sent kept in `extras`, for the
        commands a message names (`own_locale`) and « As Discord says » (`locale`)."""
        interaction.extras[DISCORD_LOCALE] = interaction.locale
        chosen = self._chosen.get(interaction.user.id)
        if chosen is not None:
            self._sent[interaction.user.id] = interaction.locale
            interaction.locale = LOCALES[chosen]

    def locale(self, interaction: discord.Interaction[Any]) -> discord.Locale:
        """The user's language now: their choice, else the locale Discord sent (read
        again after a choice made during the interaction itself)."""
        chosen = self._chosen.get(interaction.user.id)
        return LOCALES[chosen] if chosen is not None else discord_locale(interaction)


def known_locale(value: str) -> discord.Locale | None:
    """A stored locale as Discord's, None for a value no `discord.Locale` has (none is
    written but Discord's own, `stored_locale`)."""
    try:
        return discord.Locale(value)
    except ValueError:
        return None


def stored_locale(locale: discord.Locale) -> str | None:
    """The locale Discord sent, as kept with a choice (`player_languages.client_locale`):
    one discord.py does not know (Discord added it since) is not kept."""
    return locale.value if known_locale(locale.value) is not None else None


def discord_locale(interaction: discord.Interaction[Any]) -> discord.Locale:
    """The locale Discord sent with the interaction, whatever language the user chose."""
    sent = interaction.extras.get(DISCORD_LOCALE)
    return sent if isinstance(sent, discord.Locale) else interaction.locale


def own_locale(interaction: discord.Interaction[Any]) -> LocaleLike:
    """The locale of a message for the interaction's user alone (an answer, a refusal, a
    prompt, their hand): its words in the language they chose (`interaction.locale`), the
    commands it names in their client's (`discord_locale`), as Discord's command picker
    lists them to them. Only the interaction's locale when both speak the same."""
    client = discord_locale(interaction)
    if lang(client) == lang(interaction.locale):
        return interaction.locale
    return OwnLocale(interaction.locale, client)
