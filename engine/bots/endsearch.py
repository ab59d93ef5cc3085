"""The normal level's end: once its hand holds :data:`END_CARDS` cards or fewer, it chooses
as the hard level does (:mod:`.flat`), on :data:`END_SAMPLES` sampled deals.

The tactics leave most of what a search finds late in the round, where the cards are mostly
counted (docs/bots.md, « Where normal loses, classic » at stop 50), and a search over a hand
of four cards is short. The samples are drawn from a seed made of the view (the hand, every
seat's plays and the passes), so normal stays a pure function of what it sees: the same view
gives the same move, whoever asks and however often. Normal is told nobody's level: the
others' styles are drawn per sample as hard draws them for a player it does not know.

Only where no finish is penalised (``finish_penalty``): docs/bots.md, « Normal searching its
end, rebuilt (stop 52) ». Where a finish is penalised (classic, wild7) hard's margin over a
searching normal was thin (classic 2.15 ± 0.05 against 3× such a normal, stop 49; 2.17 ±
0.07 on seed 2, where the table's tests are not ready for it: « Classic's end search (stop
53) »), or unmeasured where normal needs no search (wild7, 1.19 against greedy without it).
The search itself needs no finish-penalty knob (its rollouts place a punished finish last).
One-lap tricks (proletario, with its jokers) are searched since stop 54: with normal's
one-lap lead (``lone_waits``) the two took proletario from 2.03 to 1.84 against greedy
(« Proletario's normal, continued (stop 54) »).
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
    """Whether the normal level searches its end under these rules: no penalised finish (see
    the module docstring); fast mode plays by the tactics (search follows turns)."""
    return rules.finish_penalty == "none" and not rules.fast


def searching(view: PlayerView) -> bool:
    """Whether the normal level's move in this view comes from its end search: its turn to
    play, the rules letting it search, few enough cards, more than one move."""
    return (searches(view.rules) and view.phase is Phase.PLAY and view.to_act == view.seat
            and len(view.hand) <= END_CARDS and len(view.legal) + view.can_pass > 1)


def view_seed(view: PlayerView) -> int:
    """A seed made of what the seat sees this round: equal views, equal seeds."""
    seen = repr((view.seat, view.hand, view.played, view.tells, view.trick, view.hand_sizes))
    return zlib.crc32(seen.encode())
