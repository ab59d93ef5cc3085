"""The languages players chose for their own messages (`/president my-language`, docs/bot.md
« A language of one's own (stop 58) »): one row per player who chose, none for Discord's."""

from __future__ import annotations

from sqlalchemy import delete, select

from bot.storage.access import Access
from bot.storage.models import PlayerLanguage

#: The languages a player may choose: the catalogues' (`bot.i18n.CATALOGUES`).
LANGUAGES = ("fr", "en")


class PlayerLanguages(Access):
    """The players' languages side of `Storage` (bot/storage/repository.py)."""

    async def player_languages(self) -> dict[int, str]:
        """Every choice, by user id: read whole at start (and again by a sharded process,
        whose players may choose on another's server), as few players choose at all."""
        async with self._read() as connection:
            rows = await connection.execute(select(PlayerLanguage.user_id,
                                                   PlayerLanguage.language))
            return {row.user_id: row.language for row in rows}

    async def client_locales(self) -> dict[int, str]:
        """The locale Discord sent with each choice, by user id, where it was kept (0020):
        read with the choices, for a process that never heard the player to redraw their
        hands in it once they give the choice up elsewhere (`Languages.read`)."""
        async with self._read() as connection:
            rows = await connection.execute(
                select(PlayerLanguage.user_id, PlayerLanguage.client_locale)
                .where(PlayerLanguage.client_locale.is_not(None)))
            return {row.user_id: row.client_locale for row in rows}

    async def choose_language(self, user_id: int, language: str | None,
                              client_locale: str | None = None) -> None:
        """Keep the player's choice, `None` back to Discord's locale (the row goes: nothing
        is kept of a player who chose nothing), with the locale Discord sent with it."""
        if language is not None and language not in LANGUAGES:
            raise ValueError(f"no catalogue for {language!r}")
        async with self._write() as connection:
            if language is None:
                await connection.execute(
                    delete(PlayerLanguage).where(PlayerLanguage.user_id == user_id))
                return
            values = {"language": language, "chosen_at": self._now(),
                      "client_locale": client_locale}
            statement = self._insert(PlayerLanguage).values(user_id=user_id, **values)
            await connection.execute(statement.on_conflict_do_update(
                index_elements=[PlayerLanguage.user_id], set_=values))
