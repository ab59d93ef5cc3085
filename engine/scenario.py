"""Rule scenarios: ``python -m engine.scenario PATH [PATH ...]``.

Runs the JSON scenarios of ``shared/scenarios/FORMAT.md`` against the engine and prints one
line per scenario (``PASS name`` / ``FAIL name: step N: what differed``), then
``N passed, N failed``. Steps are numbered from 0, like ``seen``. A malformed file is a FAIL
line with its reason, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from .cards import Card, Deck
from .errors import IllegalAction
from .game import Game, Phase
from .players import GreedyPlayer
from .rounds import DECIDING_CARDS
from .rules import Rules, RulesError

__all__ = ["Malformed", "ScenarioFailure", "load_game", "main", "run_file", "run_scenario"]

_ACTIONS = ("play", "pass", "give", "timeout", "resume", "leave", "next_round")
# Prose a scenario's author may add anywhere, for its readers: never read, never an error.
# Any other key whose value is text is prose too (FORMAT.md lists no others, and forbids
# none); an unknown key holding anything else is a mistake the file is failed for.
_NOTES = {"description", "notes", "note", "comment"}
_FLAGS = ("pass", "timeout", "resume", "leave")  # actions written as `"pass": true`
_STEP_KEYS = {"seat", "as", "seen", "reject", "expect", *_ACTIONS, *_NOTES}
_TOP_KEYS = {"name", "source", "rules", "hands", "previous_ranking", "opener", "points", "steps",
             *_NOTES}


class ScenarioFailure(Exception):
    """Why a scenario failed; the message is the part after ``FAIL name:``."""


class Malformed(ScenarioFailure):
    """The file breaks FORMAT.md (a field missing or of the wrong shape), rather than the
    engine differing from it: its FAIL line names the file to mend, which the scenario's
    ``name`` alone does not."""


@dataclass(frozen=True)
class Outcome:
    name: str
    failure: str | None

    @property
    def line(self) -> str:
        return f"PASS {self.name}" if self.failure is None else f"FAIL {self.name}: {self.failure}"


def _parse_cards(raw: object, where: str) -> list[Card]:
    texts = _strs(raw)
    if texts is None:
        raise Malformed(f"{where}: expected a list of cards")
    out = []
    for text in texts:
        try:
            out.append(Card.parse(text))
        except ValueError:
            raise Malformed(f"{where}: {text!r} is not a card") from None
    return out


def _cards(raw: object, deck: Deck, where: str) -> list[Card]:
    """Cards the file deals or expects: each must belong to the table's deck."""
    out = _parse_cards(raw, where)
    for card in out:
        if not deck.contains(card):
            raise Malformed(f"{where}: {card} is not in the {deck.value} deck")
    return out


def _held_cards(raw: object, deck: Deck, where: str) -> list[Card]:
    """The cards an action names. One outside the table's deck cannot be in anyone's hand:
    the engine refuses the action (a scenario may expect that), it is not a malformed file."""
    out = _parse_cards(raw, where)
    for card in out:
        if not deck.contains(card):
            raise IllegalAction("not_in_hand", f"{card} is not in the {deck.value} deck.",
                                card=str(card))
    return out


def _hands(raw: object, deck: Deck, where: str) -> list[list[Card]]:
    if not _is_list(raw) or not 2 <= len(raw) <= 8:
        raise Malformed(f"{where}: expected 2 to 8 hands")
    hands = [_cards(h, deck, f"{where}[{i}]") for i, h in enumerate(raw)]
    seen: set[Card] = set()
    for hand in hands:
        for card in hand:
            if card in seen:
                raise Malformed(f"{where}: {card} is dealt twice")
            seen.add(card)
    return hands


def _is_object(raw: object) -> TypeGuard[dict[str, object]]:
    """A JSON object, whose keys are text: `json.loads` makes no other."""
    return isinstance(raw, dict)


def _is_list(raw: object) -> TypeGuard[list[object]]:
    return isinstance(raw, list)


def _is_int(raw: object) -> TypeGuard[int]:
    """A JSON integer; ``true`` is no 1 (Python counts bools as ints)."""
    return isinstance(raw, int) and not isinstance(raw, bool)


def _strs(raw: object) -> list[str] | None:
    """The list, if it is one of text only (cards)."""
    if not _is_list(raw):
        return None
    texts = [text for text in raw if isinstance(text, str)]
    return texts if len(texts) == len(raw) else None


def _ints(raw: object) -> list[int] | None:
    """The list, if it is one of JSON integers only (seats, points)."""
    if not _is_list(raw):
        return None
    ints = [n for n in raw if _is_int(n)]
    return ints if len(ints) == len(raw) else None


def _seat(raw: object, seats: int, where: str) -> int:
    if not _is_int(raw) or not 0 <= raw < seats:
        raise Malformed(f"{where}: {raw!r} is not a seat (0–{seats - 1})")
    return raw


def _unknown(data: Mapping[str, object], known: set[str]) -> list[str]:
    """Keys the format does not know and that are not prose (a known key mistyped in
    another case, ``"As": "K"``, is no prose: read as one, the play would lose its value)."""
    return sorted(k for k, v in data.items() if k not in known
                  and (not isinstance(v, str) or k.lower() in known))


def load_game(data: object) -> Game:
    """The game a scenario starts from (rules, hands, previous ranking, opener, points)."""
    if not _is_object(data):
        raise Malformed("malformed: the file is not a JSON object")
    unknown = _unknown(data, _TOP_KEYS)
    if unknown:
        raise Malformed(f"malformed: unknown keys {sorted(unknown)}")
    # What a scenario is (FORMAT.md: « a rule set, the dealt hands, a list of steps »);
    # `name` and `source` are read where given (the FAIL line falls back to the file's name).
    for key in ("rules", "hands", "steps"):
        if key not in data:
            raise Malformed(f"malformed: missing {key!r}, which every scenario needs")
    for key in ("name", "source"):  # what the FAIL line names, the seed it comes from
        if key in data and not isinstance(data[key], str):
            raise Malformed(f"malformed: {key!r} must be text")
    if not _is_object(data["rules"]):
        raise Malformed("malformed: 'rules' must be an object")
    if "preset" not in data["rules"]:  # « rules.preset is a preset id of RULES.md »
        raise Malformed("malformed: missing 'rules.preset'")
    try:
        rules = Rules.from_dict(data["rules"])
    except RulesError as err:
        raise Malformed(f"rules: {err}") from None
    hands = _hands(data["hands"], rules.deck_kind, "hands")
    # The seats are the hands' (FORMAT.md): a count outside the preset's min_players–
    # max_players is played as dealt, as the engine can, not failed as malformed.
    seats = len(hands)
    ranking = None
    if data.get("previous_ranking") is not None:
        ranking = _ints(data["previous_ranking"])
        if ranking is None or sorted(ranking) != list(range(seats)):
            raise Malformed("previous_ranking: must list every seat once")
    opener = data.get("opener")
    if opener is not None:
        opener = _seat(opener, seats, "opener")
    elif ranking is None:
        _opener_decided(rules, hands)
    points = None
    if data.get("points") is not None:
        points = _ints(data["points"])
        if points is None or len(points) != seats:
            raise Malformed("points: expected one integer per seat")
    return Game.new(rules, seats, seed=0, hands=hands, previous_ranking=ranking, opener=opener,
                    points=points, autoplay=GreedyPlayer())


def _opener_decided(rules: Rules, hands: list[list[Card]]) -> None:
    """A first round's opener is `opener`, « needed for `random`, or when the deciding card
    is not dealt » (FORMAT.md): without it the engine would pick a seat at random (seed 0)
    or the first seat, which no rule said, and the steps would check something else. In
    fast mode nobody opens: anyone still in the round may (RULES.md §9)."""
    if rules.fast:
        return
    if rules.first_opener == "random":
        raise Malformed("malformed: missing 'opener', needed where first_opener is random")
    card = DECIDING_CARDS[rules.first_opener]
    if not any(card in hand for hand in hands):
        raise Malformed(f"malformed: missing 'opener', needed where the deciding card "
                        f"{card} is not dealt")


def _observable(game: Game) -> dict[str, object]:
    state: dict[str, object] = dict(game.to_dict())
    state.pop("version")
    return state


def _check(game: Game, expect: object) -> None:
    if not _is_object(expect):
        raise Malformed("malformed: 'expect' must be an object")
    deck = game.deck
    actual: dict[str, Callable[[], object]] = {
        "phase": lambda: game.phase.value,
        "to_act": lambda: game.to_act,
        "top_value": lambda: None if game.top is None else game.top.value,
        "count": lambda: game.count,
        "revolution": lambda: game.revolution,
        "hand_sizes": lambda: game.hand_sizes(),
        "out": lambda: list(game.out),
        # « the round's final ranking (after the round ends) »: none while a round is under
        # way, though the engine keeps the previous one for the roles and the exchange.
        "ranking": lambda: None if game.ranking is None or game.phase in (
            Phase.EXCHANGE, Phase.PLAY) else list(game.ranking),
        "roles": lambda: game.roles,
        "points": lambda: list(game.points),
        # A scenario's players never wait off the table (`Game.step_off`): its winners
        # are seats.
        "winners": lambda: sorted(s for s in game.winners if isinstance(s, int)),
        "autopilot": lambda: sorted(s for s in range(game.seats) if game.automated(s)),
    }
    for key, wanted in expect.items():
        if key == "hands":
            if _is_list(wanted):  # every seat's hand, by seat, like the file's hands
                if len(wanted) != game.seats:
                    raise Malformed("malformed: expect.hands must list one hand per seat")
                wanted = {str(seat): cards for seat, cards in enumerate(wanted)}
            if not _is_object(wanted):
                raise Malformed("malformed: expect.hands must map seats to cards")
            for seat_text, cards in wanted.items():
                if not str(seat_text).isdigit():
                    raise Malformed(f"malformed: expect.hands: {seat_text!r} is not a seat")
                seat = _seat(int(seat_text), game.seats, "expect.hands")
                want = sorted(str(c) for c in _cards(cards, deck, f"expect.hands.{seat}"))
                held = sorted(str(c) for c in game.hands[seat])
                if want != held:
                    raise ScenarioFailure(f"hands[{seat}]: expected {want}, got {held}")
            continue
        if key not in actual:
            raise Malformed(f"malformed: unknown expect key {key!r}")
        have = actual[key]()
        if key == "top_value" and isinstance(wanted, (str, int)) and not isinstance(wanted, bool):
            wanted = str(wanted).upper()  # a value is its rank: "10", or 10 as a JSON number
        seats = _ints(wanted) if key in ("winners", "autopilot") else None
        if seats is not None:
            wanted = sorted(seats)
        if key in ("winners", "autopilot") and wanted is None:
            wanted = []  # nobody (no winner before the game's end, no seat automated)
        # Compared as JSON: Python holds False == 0 and True == 1, so `"to_act": false`
        # would pass for seat 0 and `"revolution": 1` for true.
        if json.dumps(have, sort_keys=True) != json.dumps(wanted, sort_keys=True):
            raise ScenarioFailure(f"{key}: expected {json.dumps(wanted)}, got {json.dumps(have)}")


def _act(game: Game, step: Mapping[str, object], seen_version: int | None) -> None:
    actions = [k for k in _ACTIONS if k in step]
    if len(actions) > 1:
        raise Malformed(f"malformed: one action per step, got {actions}")
    action = actions[0] if actions else None
    # Keys that only mean something with some actions: elsewhere they would be dropped
    # unread, and the step would check something other than its author meant.
    if "as" in step and action != "play":
        raise Malformed("malformed: 'as' belongs to a play")
    if "seen" in step and action not in ("play", "pass"):
        raise Malformed("malformed: 'seen' belongs to a play or a pass")
    # `seat` on a timeout or a check is read as a note (« seat 1's timer runs out »): authors
    # write it so, and FORMAT.md does not forbid it; on `next_round` it can only be a slip.
    if "seat" in step and action == "next_round":
        raise Malformed("malformed: 'seat' means nothing on next_round")
    if "reject" in step and not isinstance(step["reject"], bool):
        raise Malformed(f"malformed: 'reject' must be true or false, got {step['reject']!r}")
    if step.get("reject") and action is None:
        raise Malformed("malformed: 'reject' without an action to refuse")
    if action is None:
        if "expect" not in step and not (step and set(step) <= _NOTES | {
                k for k, v in step.items() if isinstance(v, str)}):
            raise Malformed("malformed: a step needs an action or 'expect'")
        return
    if action in _FLAGS and step[action] is not True:
        raise Malformed(f"malformed: {action!r} must be true, got {step[action]!r}")
    if action == "timeout":
        game.timeout()
    elif action == "next_round":
        _next_round(game, step["next_round"])
    else:  # the seat's actions
        if "seat" not in step:
            raise Malformed(f"malformed: missing 'seat', which {action!r} needs")
        _seat_act(game, action, _seat(step.get("seat"), game.seats, "seat"), step,
                  seen_version)


def _seat_act(game: Game, action: str, seat: int, step: Mapping[str, object],
              seen_version: int | None) -> None:
    """A play, pass, give, resume or leave of `seat`."""
    if action == "play":
        cards = _held_cards(step["play"], game.deck, "play")
        announce = step.get("as")
        if isinstance(announce, int) and not isinstance(announce, bool):
            announce = str(announce)  # "as": 10, a value written as a JSON number
        if announce is not None and not isinstance(announce, str):
            raise Malformed("malformed: 'as' must be a value such as \"K\"")
        game.play(seat, cards, announce, seen_version)
    elif action == "pass":
        game.pass_turn(seat, seen_version)
    elif action == "give":
        game.give(seat, _held_cards(step["give"], game.deck, "give"))
    elif action == "resume":
        game.resume(seat)
    else:
        game.leave(seat)


def _next_round(game: Game, spec: object) -> None:
    if spec is True or spec is None:
        spec = {}  # no given hands: the engine deals, from the scenario's fixed seed
    if not _is_object(spec):
        raise Malformed("malformed: next_round must be an object")
    unknown = _unknown(spec, {"hands", *_NOTES})
    if unknown:  # `"hand"` would silently let the engine deal
        raise Malformed(f"malformed: next_round takes only 'hands', got {unknown}")
    hands = None
    if spec.get("hands") is not None:
        hands = _hands(spec["hands"], game.deck, "next_round.hands")
        if len(hands) != game.seats:
            raise Malformed("next_round.hands: one hand per seat")
    game.next_round(hands)


def run_scenario(data: object) -> None:
    """Play a parsed scenario; raises ScenarioFailure on the first difference."""
    game = load_game(data)  # an object with steps, or raised
    steps = data.get("steps") if _is_object(data) else None
    if not _is_list(steps):
        raise Malformed("malformed: 'steps' must be a list")
    versions = {-1: game.version}
    for index, step in enumerate(steps):
        try:
            if not _is_object(step):
                raise Malformed("malformed: a step must be an object")
            unknown = _unknown(step, _STEP_KEYS)
            if unknown:
                raise Malformed(f"malformed: unknown keys {sorted(unknown)}")
            seen = step.get("seen")
            seen_version = None
            if seen is not None:
                if not _is_int(seen) or seen not in versions:
                    raise Malformed(f"malformed: seen {seen!r} is not an earlier step")
                seen_version = versions[seen]
            if step.get("reject"):
                before = _observable(game)
                try:
                    _act(game, step, seen_version)
                except IllegalAction:
                    pass
                else:
                    raise ScenarioFailure("the engine accepted an action it must refuse")
                if _observable(game) != before:
                    raise ScenarioFailure("a refused action changed the game")
            else:
                try:
                    _act(game, step, seen_version)
                except IllegalAction as err:
                    raise ScenarioFailure(f"refused: {err}") from None
            if "expect" in step:
                _check(game, step["expect"])
            versions[index] = game.version
        except ScenarioFailure as err:
            raise type(err)(f"step {index}: {err}") from None
        except (KeyError, TypeError, ValueError) as err:
            # The file's shape is checked above: what raises here is most likely the engine
            # (a fast-mode bot with nothing to play raised ValueError), not a malformed file.
            raise ScenarioFailure(f"step {index}: error: {err!r}") from None


def run_file(path: Path) -> Outcome:
    name = path.stem
    try:
        data: object = json.loads(path.read_text(encoding="utf-8-sig"))  # a BOM is no error
        named = data.get("name") if _is_object(data) else None
        if isinstance(named, str):
            name = named
        run_scenario(data)
    except Malformed as err:
        return Outcome(name, f"{err} (in {path})")
    except ScenarioFailure as err:
        return Outcome(name, str(err))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        return Outcome(name, f"cannot read {path}: {err}")
    except Exception as err:  # an engine bug must still be a FAIL line, not a traceback
        return Outcome(name, f"error: {type(err).__name__}: {err}")
    return Outcome(name, None)


def scenario_files(paths: Sequence[str]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(path.rglob("*.json"))
        else:
            yield path


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m engine.scenario PATH [PATH ...]", file=sys.stderr)
        return 2
    passed = failed = 0
    for path in scenario_files(args):
        outcome = run_file(path)
        print(outcome.line)
        if outcome.failure is None:
            passed += 1
        else:
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
