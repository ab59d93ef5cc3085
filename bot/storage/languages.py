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

    async def choose_language(self, user_id: int, language: str | None) -> None:
        """Keep the player's choice, `None` back to Discord's locale (the row goes: nothing
        is kept of a player who chose nothing)."""
        if language is not None and language not in LANGUAGES:
            raise ValueError(f"no catalogue for {language!r}")
        async with self._write() as connection:
            if language is None:
                await connection.execute(
                    delete(PlayerLanguage).where(PlayerLanguage.user_id == user_id))
                return
            statement = self._insert(PlayerLanguage).values(
                user_id=user_id, language=language, chosen_at=self._now())
            await connection.execute(statement.on_conflict_do_update(
                index_elements=[PlayerLanguage.user_id],
                set_={"language": language, "chosen_at": self._now()}))
