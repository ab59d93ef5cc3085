"""The normal level's end: once its hand holds :data:`END_CARDS` cards or fewer, it chooses
as the hard level does (:mod:`.flat`), on :data:`END_SAMPLES` sampled deals.

The tactics leave most of what a search finds late in the round, where the cards are mostly
counted (docs/bots.md, « Where normal loses, classic » at stop 50), and a search over a hand
of four cards is short. The samples are drawn from a seed made of the view (the hand, every
seat's plays and the passes), so normal stays a pure function of what it sees: the same view
gives the same move, whoever asks and however often. Normal is told nobody's level: the
others' styles are drawn per sample as hard draws them for a player it does not know.

Where no finish is penalised (``finish_penalty``), or where tricks last until all pass
(``trick_end``) and no card is wild (``wild_rank``). Presi, then proletario since stop 54:
its one-lap tricks and jokers need nothing of the search, and with normal's one-lap lead
(``lone_waits``) the two took proletario from 2.03 to 1.84 against greedy (docs/bots.md,
« Proletario's normal, continued (stop 54) »). Classic since stop 54 too: a penalised finish
needs no knob, the search's rollouts place a punished finish last, as the game does, so it
never prefers one to the tactics' move; normal searching in classic places 1.85 against 3×
greedy, hard 2.15–2.17 against 3× such a normal (« Classic's end search (stop 53) » and
« Classic's end search, landed (stop 54) »). Wild7 (wild 7s and a penalised finish) plays the
tactics: normal needs no search there (1.19 against greedy without it) and hard's margin
over a searching normal was never measured.
"""

from __future__ import annotations

import zlib

from ..game import Phase
from ..rules import Rules
from ..view import PlayerView

__all__ = ["END_CARDS", "END_SAMPLES", "searches", "searching", "view_seed"]

END_CARDS = 4  # stop 21: 3 / 4 / 6 cards gave classic 1.89 / 1.86 / 1.80 against greedy
END_SAMPLES = 8  # p99 13–26 ms per decision at stop 49


def searches(rules: Rules) -> bool:
    """Whether the normal level searches its end under these rules (see the module
    docstring); fast mode plays by the tactics (search follows turns)."""
    if rules.fast:
        return False
    return rules.finish_penalty == "none" or (
        rules.trick_end == "all_passed" and rules.wild_rank == "none")


def searching(view: PlayerView) -> bool:
    """Whether the normal level's move in this view comes from its end search: its turn to
    play, the rules letting it search, few enough cards, more than one move."""
    return (searches(view.rules) and view.phase is Phase.PLAY and view.to_act == view.seat
            and len(view.hand) <= END_CARDS and len(view.legal) + view.can_pass > 1)


def view_seed(view: PlayerView) -> int:
    """A seed made of what the seat sees this round: equal views, equal seeds."""
    seen = repr((view.seat, view.hand, view.played, view.tells, view.trick, view.hand_sizes))
    return zlib.crc32(seen.encode())
