"""Names as tables show them: a right-to-left name isolated, a second player of a name
numbered within Discord's length, never cut inside an escape."""

from bot.lookalike import DATA, likeness, prototypes, skeleton
from bot.names import ISOLATE, NAME_LENGTH, POP, numbered, shortened, unique
from bot.packages.text import player_name, unescaped
from bot.tables.seats import seat_bot
from bot.tables.table import Table
from engine import Rules


def test_only_a_name_with_right_to_left_letters_is_isolated() -> None:
    assert player_name("שלום 12") == f"{ISOLATE}שלום 12{POP}"
    assert player_name("Ali مرحبا") == f"{ISOLATE}Ali مرحبا{POP}"
    assert player_name("\u202eZoé 🎉") == "Zoé 🎉"  # typed overrides still go


def test_a_numbered_name_keeps_discord_length_and_its_escapes_whole() -> None:
    for typed in ("_" * 32, "a" + "*" * 31, "x" * 32, "@everyone", "שלום_" * 6):
        shown = player_name(typed)
        second = numbered(shown, 2)
        assert second.endswith((" (2)", f" (2){POP}"))
        plain = unescaped(second).removeprefix(ISOLATE).removesuffix(POP)
        assert len(plain.replace("\u200b", "")) <= NAME_LENGTH
        assert player_name(plain) == second  # every escape whole: shown as if typed so


def test_the_first_free_number_is_taken() -> None:
    assert unique("Twin", set()) == "Twin"
    assert unique("Twin", {"Twin", "Twin (2)"}) == "Twin (3)"
    assert unique("Twin (2)", {"Twin (2)"}) == "Twin (2) (2)"


def test_a_web_address_in_a_name_is_no_link() -> None:
    """From the play-test: a member named « https://e.vil/_x_.gif » was a link in the lobby
    and the table message, which Discord unfurls into a preview of what it points to; the
    address is broken by a zero-width space, and its markdown escaped as text."""
    assert player_name("https://e.vil/_x_.gif") == "https:\u200b//e.vil/\\_x\\_.gif"
    assert player_name("steam://run/1") == "steam:\u200b//run/1"


def test_a_name_cannot_open_a_numbered_list() -> None:
    """From the play-test: a member named « 1. Zoé » opens lines of the table message
    (« 1. Zoé doit donner 2 cartes à… »), which Discord drew as a numbered list, indented;
    its « . » is escaped, as `escape_markdown` escapes a leading « - » or « # »."""
    assert player_name("1. Zoé") == "1\\. Zoé"
    assert player_name("12.") == "12\\."
    assert player_name("1.5 Zoé") == "1.5 Zoé"
    assert unescaped(player_name("1. Zoé")) == "1. Zoé"


def test_a_shortened_name_keeps_its_start_its_end_and_its_escapes_whole() -> None:
    """The history shortens long names of joint winners to fit its page: within the length
    asked, « … » between the start and the end (which tells twins apart), no escape cut."""
    for typed in ("_" * 32, "Jean-Baptiste de la Fontaine (2)", "שלום_" * 6, "👍🏽" * 16):
        shown = player_name(typed)
        whole = len(unescaped(shown).removeprefix(ISOLATE).removesuffix(POP))
        assert shortened(shown, whole) == shown
        for length in range(1, whole):
            short = shortened(shown, length)
            plain = unescaped(short).removeprefix(ISOLATE).removesuffix(POP)
            assert len(plain) <= length and plain.count("…") == 1
            assert player_name(plain) == short  # every escape whole: shown as if typed so
    assert shortened(player_name("Jean-Baptiste de la Fontaine (2)"), 20) == \
        "Jean-Baptiste…ne (2)"


def test_names_that_look_alike_are_numbered_as_one_name() -> None:
    """A member could pass for another at the table with a name that only looks the same:
    Unicode's look-alikes (UTS #39 skeletons, `bot.lookalike`), a case changed, an
    invisible character, or the same letters in another normal form."""
    seated = {player_name(name) for name in ("Twin", "Alice", "BOB", "Zoé", "_x_", "❤ Max")}
    for typed in ("Тwin",  # Cyrillic Т
                  "Ｔｗｉｎ", "𝐓𝐰𝐢𝐧",  # fullwidth, mathematical bold
                  "T\u200bwin", "Tw\u2060in", "\u2068Twin\u2069",  # invisible, isolates
                  "twin", "TWIN", "alice", "ALICE",  # case
                  "AIice", "A1ice", "B0B",  # l, I and 1; 0 and O
                  "Zoe\u0301",  # « Zoé » as « e » and a combining accent (NFD)
                  "＿x＿",  # fullwidth low lines, where « _x_ » is shown escaped
                  "❤\ufe0f Max"):  # an emoji's variation selector
        shown = player_name(typed)
        assert unique(shown, seated) == numbered(shown, 2), typed


def test_names_that_differ_to_the_eye_are_left_as_typed() -> None:
    """Accents are part of a name, French ones first of all: « Léa » and « Lea » are two
    names, neither numbered nor changed; nor are names a letter or a digit apart."""
    seated = {player_name(name) for name in ("Lea", "Zoe", "Helene", "Noel", "Bot 1", "Twin")}
    for typed in ("Léa", "Zoé", "Hélène", "Noël", "Bot 2", "Twins", "Tvvin", "Ali"):
        shown = player_name(typed)
        assert unique(shown, seated) == shown == typed


def test_a_look_alike_of_a_numbered_name_takes_the_next_number() -> None:
    seated = {"Twin", "Twin (2)"}
    assert unique("Тwin", seated) == "Тwin (3)"
    assert unique("Тwin (2)", seated) == "Тwin (2) (2)"


def test_the_confusables_are_unicode_s_own() -> None:
    """The data is Unicode's `confusables.txt` as published (its header names the
    version), and the skeleton follows UTS #39: NFD, ignorables out, prototypes, NFD."""
    header = DATA.read_text(encoding="utf-8-sig").splitlines()[:9]
    assert header[0] == "# confusables.txt" and header[6].endswith("UTS #39")
    assert header[7].startswith("# Version: ")
    mapped = prototypes()
    assert len(mapped) > 6000
    assert (mapped["0"], mapped["1"], mapped["I"], mapped["Т"], mapped["m"]) == \
        ("O", "l", "l", "T", "rn")
    assert skeleton("Ｍ\u200b1ｌɑ\u0301n") == skeleton("MIlán") == "Mlla\u0301n"
    assert likeness("Iris") & likeness("lris") and likeness("Iris") & likeness("iris")
    assert not likeness("Léa") & likeness("Lea")


def test_a_bot_takes_the_next_number_beside_a_member_named_like_it() -> None:
    """A member named « bot 1 » (or « Вot 2 », a Cyrillic В) sat before the bots: the
    first bot was « Bot 1 (2) ». Bots skip the numbers such names take."""
    table = Table(id=7, channel_id=1, guild_id=1, host_id=100, locale="fr",
                  rules=Rules.preset("classic"))
    table.seats = [table.new_player(100, "bot 1"), table.new_player(101, "Вot 2")]
    seat_bot(table)
    seat_bot(table)
    assert [p.name for p in table.seats] == ["bot 1", "Вot 2", "Bot 3", "Bot 4"]


def test_a_name_cannot_carry_the_marks_of_a_bot_or_of_the_host() -> None:
    """Play-test 13: members named « 🤖 Bot 1 » and « marie 👑 hôte » showed on the table
    as a second bot and a second host."""
    assert player_name("🤖 Bot 1") == "Bot 1"
    assert player_name("marie 👑\ufe0f hôte") == "marie hôte"
    assert player_name("🤖👑") == "?"
    assert player_name("🤖\ufe0e Robo") == "Robo"  # the text-style variation too
