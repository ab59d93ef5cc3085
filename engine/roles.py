"""Roles by table size, and the exchange they imply (RULES.md §8)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["exchange_pairs", "roles_for"]


def roles_for(seats: int, vp_at_three: bool) -> tuple[str, ...]:
    """Role codes from first to last place.

    >>> roles_for(3, False), roles_for(3, True), roles_for(6, False)
    (('P', 'N', 'L'), ('P', 'VP', 'L'), ('P', 'VP', 'N', 'N', 'VL', 'L'))
    """
    if seats <= 1:
        return ("P",) * seats
    if seats == 2:
        return ("P", "L")
    if seats == 3:
        return ("P", "VP", "L") if vp_at_three else ("P", "N", "L")
    return ("P", "VP") + ("N",) * (seats - 4) + ("VL", "L")


def exchange_pairs(ranking: Sequence[int], vp_at_three: bool) -> list[tuple[int, int, int]]:
    """(low giver, high receiver, count): L gives 2 to P; from 4 seats VL gives 1 to VP."""
    roles = roles_for(len(ranking), vp_at_three)
    seat_of = {role: seat for seat, role in zip(ranking, roles, strict=True)}
    pairs = []
    if "P" in seat_of and "L" in seat_of:
        pairs.append((seat_of["L"], seat_of["P"], 2))
    if "VP" in seat_of and "VL" in seat_of:
        pairs.append((seat_of["VL"], seat_of["VP"], 1))
    return pairs
