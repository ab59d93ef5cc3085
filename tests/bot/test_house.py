"""Reading a channel's house rules back (`bot.tables.house.read`): whatever some version of
the bot stored, a table opens, and the lobby is told what could not be kept."""

from __future__ import annotations

from bot.tables.house import House, TableSettings, read, read_house, read_settings
from engine import Rules


def test_no_house_rules_opens_the_preset_asked_for_or_classic() -> None:
    assert read(None, None) == (Rules.preset("classic"), None)
    assert read(None, "wild7") == (Rules.preset("wild7"), None)


def test_house_rules_that_are_the_presets_own_say_nothing() -> None:
    assert read({"preset": "presi", "set": {}}, None) == (Rules.preset("presi"), None)
    assert read({"preset": "presi"}, "presi") == (Rules.preset("presi"), None)


def test_house_rules_are_read_and_said() -> None:
    stored = Rules.preset("proletario", turn_seconds=90).to_dict()
    assert read(stored, None) == (Rules.preset("proletario", turn_seconds=90), House())


def test_rules_that_no_longer_hold_together_leave_the_presets_defaults() -> None:
    """Each knob readable alone, the two together refused (more seats at least than at
    most): the whole set is put aside, said so, rather than half of it kept."""
    stored = {"preset": "classic", "set": {"min_players": 6, "max_players": 4}}
    assert read(stored, None) == (Rules.preset("classic"), House(unreadable=True))


def test_a_shape_no_version_wrote_is_unreadable() -> None:
    assert read({"preset": "classic", "set": ["fast"]}, None) == \
        (Rules.preset("classic"), House(unreadable=True))
    assert read({"preset": 3}, None) == (Rules.preset("classic"), House(unreadable=True))


def test_a_knob_unread_is_named_as_a_plain_word() -> None:
    stored = {"preset": "classic", "set": {"fast": True, "**<@1>**": 1, "turn_seconds": []}}
    rules, house = read(stored, None)
    assert rules == Rules.preset("classic", fast=True)
    assert house == House(dropped=("1", "turn_seconds"))


def test_table_settings_are_read_leniently() -> None:
    """The table settings kept beside the rules (stop 52): none kept (a row from before
    0012) is the defaults; what this version cannot read stays at its default and is
    named; a shape no version wrote names them all."""
    assert read_settings(None) == (TableSettings(), [])
    kept = {"bot_level": "hard", "hints": True, "reminders": False}
    assert read_settings(kept) == (TableSettings("hard", True, False), [])
    assert read_settings({"bot_level": "expert", "hints": 1, "reminders": False,
                          "music": "on"}) == (TableSettings(reminders=False),
                                              ["bot_level", "hints", "music"])
    assert read_settings(["hard"]) == (TableSettings(), ["bot_level", "hints", "reminders"])


def test_house_settings_are_said_beside_the_rules() -> None:
    """Rules that are the preset's own with settings kept: the lobby has the settings to
    say (and to reset); with neither, nothing; unreadable rules keep readable settings."""
    assert read_house({"preset": "presi", "set": {}}, None, None) == \
        (Rules.preset("presi"), TableSettings(), None)
    assert read_house({"preset": "presi", "set": {}}, {"hints": True}, None,
                      own_thread=True) == \
        (Rules.preset("presi"), TableSettings(hints=True),
         House(settings=("hints",), own_thread=True))
    assert read_house({"preset": "tute"}, {"bot_level": "hard"}, "wild7") == \
        (Rules.preset("wild7"), TableSettings("hard"),
         House(unreadable=True, settings=("bot_level",)))


def test_a_snapshot_s_house_reads_back_both_ways() -> None:
    """Stop 51's `house` (no settings, no thread) reads as before; a newer one's unknown
    setting name is dropped."""
    assert House.from_dict({"dropped": [], "unreadable": False}) == House()
    house = House(("x",), settings=("hints", "reminders"), own_thread=True)
    assert House.from_dict(house.to_dict()) == house
    assert House.from_dict({"dropped": [], "unreadable": False,
                            "settings": ["hints", "music"]}) == House(settings=("hints",))
