"""`stats.members`: what the bot knows of who is a member holds for `FRESH` seconds, and the
answers kept are swept so that memory follows the members seen lately, not all ever seen."""

from bot.packages.stats.members import FRESH, SWEEP_FROM, Members
from bot.tables.clock import ManualClock

GUILD, OTHER = 1, 2


def test_an_answer_holds_for_an_hour_then_is_asked_again() -> None:
    clock = ManualClock()
    members = Members(clock)
    members.present(GUILD, 10)
    members.left(GUILD, 11)
    members.left(OTHER, 12)
    assert (members.known(GUILD, 10), members.known(GUILD, 11), members.known(GUILD, 13)) == \
        (True, False, None)
    assert members.gone_from(GUILD) == {11}
    clock.advance(FRESH - 1)
    members.present(GUILD, 11)  # came back and asked for the board
    assert members.gone_from(GUILD) == set() and members.gone_from(OTHER) == {12}
    clock.advance(1)
    assert members.known(GUILD, 10) is None and members.gone_from(OTHER) == set()


def test_stale_answers_are_swept() -> None:
    clock = ManualClock()
    members = Members(clock)
    for user in range(SWEEP_FROM - 1):
        members.left(GUILD, user)
    clock.advance(FRESH)
    members.present(GUILD, SWEEP_FROM)  # the sweep: all the others are stale
    assert len(members) == 1
    for user in range(SWEEP_FROM - 2):
        members.present(OTHER, user)
    assert len(members) == SWEEP_FROM - 1  # under the next sweep's mark, kept
