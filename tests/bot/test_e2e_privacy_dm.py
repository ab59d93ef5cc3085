"""End-to-end: what the bot keeps about a player, seen from their DM with it (stop 50,
docs/bot.md « Privacy and leftovers (stop 50) »): `/privacy` (« confidentialité ») beside
stop 49's `/forget`, and both it and `/president privacy` saying what is kept in the
player's own words: the name, the seats' names, each server's games, rounds and ratings."""

from pathlib import Path

from bot.i18n import t
from bot.packages.privacy.views import SERVERS_SHOWN, answer, detail
from bot.storage.records import HeldData, KeptDetail, RatingKept, ServerKept
from engine import Phase
from fakediscord import FakeDiscord
from fakediscord.limits import MAX_EMBED_DESCRIPTION

from .conftest import LinkedClock
from .e2e import alice_and_bob_stored, play_until
from .test_e2e_playtest9_moderation import audit_log_only


async def test_a_banned_player_sees_from_a_dm_what_is_kept_then_erases_it(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """bob (French) played a round on the bot's one server and was banned from it. In his
    DM with the bot he had `/forget` only, whose question counts what goes (« ton nom, 1
    partie, 1 manche et 1 cote ») but says neither where nor which rating. `/privacy`
    (« confidentialité ») shows the name kept, the server by its name, his game and round
    there and his rating at the preset, as his stats showed it; after `/forget`, nothing."""
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:1",
                                                              bob_locale="fr")
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.GAME_OVER)
    await bot.service.drain()
    assert bot.storage is not None
    board = await bot.storage.leaderboard(fake.guild.id, "classic")
    (rating,) = [row.rating for row in board.rows if row.user_id == bob.user.id]
    audit_log_only(fake)
    fake.ban(fake.guild, bob.user)
    await fake.settle()
    await alice.user.slash("president end")
    await alice.user.slash("president end")  # the table closes: nothing holds bob now

    await bob.user.slash("privacy", channel=bob.user.dm)
    shown = bob.user.last_ephemeral(bob.user.dm).text.split("\n")
    assert shown[0] == "🔒 Ce que ce bot garde de toi"
    kept = shown[shown.index(t("fr", "privacy.now", summary="ton nom, 1 partie, 1 manche et "
                                                           "1 cote")) + 1:]
    assert kept[:4] == [
        t("fr", "privacy.name_kept", name="bob"),
        t("fr", "privacy.seat_names", names="bob"),
        t("fr", "privacy.server", server=f"**{fake.guild.name}**",
          counts="1 partie et 1 manche"),
        t("fr", "privacy.rating", preset=t("fr", "preset_pooled.classic"), rating=rating,
          rounds="1 manche comptée"),
    ]
    assert any("`/oublier`" in line for line in shown)

    await bob.user.slash("forget", channel=bob.user.dm)
    await bob.user.click(bob.user.last_ephemeral(bob.user.dm), "Tout effacer")
    await bob.user.slash("privacy", channel=bob.user.dm)
    assert t("fr", "privacy.now_none") in bob.user.last_ephemeral(bob.user.dm).text
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_president_privacy_names_a_server_the_bot_left_by_its_id(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """alice (English) asks on a second server after the bot was removed from the first:
    her results there are still kept, and said to be, under the server's id (the bot
    keeps no server's name, and knows it only while it is there)."""
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:1")
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.GAME_OVER)
    await bot.service.drain()
    await alice.user.slash("president end")
    await alice.user.slash("president end")
    first = fake.guild
    second = fake.add_guild("Other place")
    fake.add_member(second, alice.user)
    fake.remove_bot(first)
    await fake.settle()
    cards = fake.add_channel(second, "cards")
    await alice.user.slash("president privacy", channel=cards)
    text = alice.user.last_ephemeral(cards).text
    assert t("en", "privacy.server", server=t("en", "privacy.server_gone", id=first.id),
             counts="1 game and 1 round") in text.split("\n")
    await fake.disconnect(bot)
    fake.assert_no_errors()


def test_the_detail_fits_an_embed_at_its_longest() -> None:
    """Thirty servers of four ratings each, every name at Discord's 100 characters:
    `SERVERS_SHOWN` servers are detailed, the rest counted, and the whole answer fits an embed's text."""
    kept = KeptDetail(name="n" * 32, language="fr", seat_names=tuple(f"{i}" * 32 for i in range(10)),
                      servers=tuple(ServerKept(10**17 + i, 999, 9999, tuple(
                          RatingKept(preset, 1999, 9999)
                          for preset in ("classic", "presi", "proletario", "wild7")))
                          for i in range(30)), client_locale="es-419")
    for locale in ("fr", "en"):
        lines = detail(locale, kept, {10**17 + i: "é" * 100 for i in range(0, 30, 2)})
        assert lines[-1] == t(locale, "privacy.more_servers.many", n=30 - SERVERS_SHOWN)
        whole = "\n\n".join([t(locale, "privacy.kept"), t(locale, "privacy.now", summary="x"),
                             *lines, t(locale, "privacy.erase", erased="x")])
        assert len(whole) <= MAX_EMBED_DESCRIPTION, len(whole)


def test_the_answer_fits_an_embed_with_names_made_of_markdown() -> None:
    """As above, every name made of characters escaping doubles (« * », « _ », « < »: a
    « john_doe » is common), and every count at its widest: the answer `/privacy` sends
    was 4,282 characters in French with six servers detailed, past an embed's 4,096,
    which Discord refuses whole (Embed Limits,
    https://discord.com/developers/docs/resources/message#embed-object-embed-limits)."""
    held = HeldData(named=True, games=99999, rounds=999999, ratings=120, hosted=9999,
                    notices=999, language=True)
    for mark in "*_<":
        kept = KeptDetail(name=mark * 32, language="fr",
                          seat_names=tuple(mark * 31 + f"{i}" for i in range(10)),
                          servers=tuple(ServerKept(10**19 + i, 99999, 999999, tuple(
                              RatingKept(preset, 1999, 99999)
                              for preset in ("classic", "presi", "proletario", "wild7")))
                              for i in range(30)), client_locale="es-419")
        for locale in ("fr", "en"):
            text = answer(locale, held, kept, {10**19 + i: mark * 100 for i in range(0, 30, 2)})
            assert len(text) <= MAX_EMBED_DESCRIPTION, (mark, locale, len(text))
