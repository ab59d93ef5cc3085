"""The languages players chose for their own messages (`player_languages`, stop 58), on
SQLite and PostgreSQL: kept per player, changed, back to Discord's, listed and erased."""

from __future__ import annotations

import pytest
from sqlalchemy import CheckConstraint

from bot.i18n import CATALOGUES
from bot.languages import LOCALES
from bot.storage import Storage
from bot.storage.languages import LANGUAGES
from bot.storage.models import Base, PlayerLanguage

from .test_scores import ALICE, BOB, CAROL


async def test_a_choice_is_kept_changed_and_dropped_for_discords(storage: Storage) -> None:
    assert await storage.player_languages() == {}
    await storage.choose_language(ALICE, "fr")
    await storage.choose_language(BOB, "en")
    await storage.choose_language(ALICE, "en")  # changed: one row still
    assert await storage.player_languages() == {ALICE: "en", BOB: "en"}
    await storage.choose_language(BOB, None)  # « Selon Discord »: nothing kept
    await storage.choose_language(CAROL, None)  # never chose: nothing to drop
    assert await storage.player_languages() == {ALICE: "en"}


async def test_the_locale_sent_with_a_choice_is_kept_with_it_and_goes_with_it(
        storage: Storage) -> None:
    """0020: the locale Discord sent with a choice, kept with it (replaced by a later
    choice's, none where the choosing process gave none), listed by `/privacy`'s detail,
    gone when the choice is given up or erased."""
    await storage.choose_language(ALICE, "fr", "en-US")
    await storage.choose_language(BOB, "en", "fr")
    await storage.choose_language(CAROL, "fr")
    assert await storage.client_locales() == {ALICE: "en-US", BOB: "fr"}
    await storage.choose_language(ALICE, "en", "en-GB")
    assert await storage.client_locales() == {ALICE: "en-GB", BOB: "fr"}
    kept = await storage.kept_about(ALICE)
    assert (kept.language, kept.client_locale) == ("en", "en-GB")
    assert (await storage.kept_about(CAROL)).client_locale is None
    await storage.choose_language(BOB, None)
    await storage.forget_user(ALICE)
    assert await storage.client_locales() == {}


async def test_no_language_without_a_catalogue_is_kept(storage: Storage) -> None:
    """A value the command does not offer never reaches the database (its CHECK would
    refuse it too): nothing is kept."""
    with pytest.raises(ValueError, match="no catalogue"):
        await storage.choose_language(ALICE, "de")
    assert await storage.player_languages() == {}


async def test_the_choice_is_listed_and_erased_with_the_player(storage: Storage) -> None:
    """A player who chose a language and never played: `/privacy` lists it, `/forget`
    erases it, and nobody else's."""
    await storage.choose_language(ALICE, "fr")
    await storage.choose_language(BOB, "fr")
    held = await storage.held_about(ALICE)
    assert held.language and not held.named and not held.empty
    assert (await storage.kept_about(ALICE)).language == "fr"
    assert (await storage.forget_user(ALICE)).language
    assert await storage.player_languages() == {BOB: "fr"}
    assert (await storage.held_about(ALICE)).empty
    assert (await storage.kept_about(ALICE)).language is None


def test_the_languages_kept_are_those_with_a_catalogue_and_a_locale() -> None:
    """Four lists name the languages a player may choose: the storage's (and its CHECK),
    the catalogues, and the locales `Languages.apply` sets. One added to a catalogue alone
    would be refused by the storage; one stored without a locale, dropped at the start."""
    assert set(LANGUAGES) == set(CATALOGUES) == set(LOCALES)
    table = Base.metadata.tables[PlayerLanguage.__tablename__]
    check = next(c for c in table.constraints if isinstance(c, CheckConstraint))
    assert str(check.sqltext) == "language IN ({})".format(
        ", ".join(f"'{code}'" for code in LANGUAGES))
