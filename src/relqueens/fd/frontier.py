"""A knapsack solved exactly at the root, by a dynamic program over its Pareto frontier.

The table of :mod:`~relqueens.fd.knapsack` holds a cell for every room
left, so a knapsack whose weights run to the thousands overflows it. But
few rooms matter. A choice of some items is a *state* (room used, gain),
and only the states on the frontier (no other uses less room for as much
gain) can lead to an optimum. With the items ranked by gain per unit of
weight, the LP takes the best ones whole up to the first that does not
fit (the *break*); an optimum differs from that choice mostly in the
items ranked near the break. So the program starts from it and lets the
*core* of items it may change grow from the break both ways, in turn: one
item above it may be taken out, one below it put in (Pisinger's expanding
core). A state within the room can at most add the rest of it at the
ratio of the next item below the core (every later one's is lower); a
state over the room must take out at least the excess, at no better than
the ratio of the next one above. A state that so cannot beat the best
found is dropped, and the program ends when no state is left or no item.
On the knapsack classes that defeat the LP (gains correlated with weights,
inversely, strongly or almost; or equal to them, a subset sum) the
frontier stays thousands of states wide where the table would need
millions of cells.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias

from .knapsack import layout, parts

if TYPE_CHECKING:
    from .domain import Dom
    from .relaxation import KnapsackBound

Path: TypeAlias = "tuple[()] | tuple[int, int, Path]"
"""The choices that made a state: its last (an item's rank, its steps) and the path before."""

State: TypeAlias = tuple[int, int, int, int, Path]
"""A state on the frontier: (room used, -gain, -1, 0, path); a state made from one: (room used,
-gain, the rank of the item changed, its steps, the path of the state it was made from)."""

STATES = 12_000_000
"""The most states (kept and made) one solve may visit before it gives up."""


def best_point(
    relaxed: KnapsackBound, D: list[Dom], off: list[int], cap: int | float
) -> tuple[int | float, dict[int, int] | None] | None:
    """The least cost of ``relaxed`` over integer points of ``D``, and a point reaching it.

    Returns ``(least, point)``, or ``(cap + 1, None)`` if no point costs at
    most ``cap`` (the states that cannot are dropped: the search gives up
    nothing). ``None`` when the constraint has a variable without a bitset
    domain, a cost on a variable outside it, fails at once, or the frontier
    passes :data:`STATES`.

    >>> from relqueens.fd.relaxation import KnapsackBound
    >>> kb = KnapsackBound({0: -3, 1: -2, 2: -2}, {0: 2, 1: 2, 2: 2}, 5)   # max 3x + 2y + 2z
    >>> best_point(kb, [0b11, 0b11, 0b11], [0, 0, 0], float("inf"))       # 2 of the 3 fit
    (-5, {0: 1, 1: 1, 2: 0})
    """
    if not relaxed.cost.keys() <= relaxed.weight.keys():
        return None
    shape = layout(relaxed, D, off)
    if shape is None:
        return None
    items, room, _, equal = shape
    if equal:
        return None
    base = sum(relaxed.cost.get(i, 0) * start for i, start, _, _, _ in items)
    # an item moves y of its steps from its start (each ``unit`` steps of its variable), using
    # w * y of the room and gaining g * y; a variable of every step 0..m is an item per part
    # 1, 2, 4, ... of m, each taken or not (a bounded knapsack's copies: 7 items for 100, not
    # one of 101 choices)
    ranked: list[tuple[int, int, int, tuple[int, ...], int]] = []
    for i, _, sign, w, steps in items:
        g, most = -relaxed.cost.get(i, 0) * sign, max(steps)
        if g > 0 and 1 < most == len(steps) - 1:
            ranked += [(i, w * part, g * part, (0, 1), part) for part in parts(most)]
        elif g > 0 and most:
            ranked.append((i, w, g, steps, 1))
    ranked.sort(key=lambda item: Fraction(item[2], item[1]), reverse=True)
    used = gain = whole = 0  # the LP's choice: whole items (every step) while they fit
    while whole < len(ranked) and used + ranked[whole][1] * max(ranked[whole][3]) <= room:
        _, w, g, steps, _ = ranked[whole]
        used, gain, whole = used + w * max(steps), gain + g * max(steps), whole + 1
    # a state must gain more than ``least`` (to cost at most ``cap``), and more than ``best``
    least = base - cap - 1 if type(cap) is int else -1  # no target: any point
    best = least
    found: Path | None = None  # the best state's path (none beats ``least``)
    if gain > best:
        best, found = gain, ()
    states: list[State] = [(used, -gain, -1, 0, ())]  # the frontier, from the LP's choice
    above, below = whole - 1, whole  # the next items to take out (above the break), put in
    spent = 0
    while states and (above >= 0 or below < len(ranked)):
        for take_out in (False, True):
            k = above if take_out else below
            if not states or not 0 <= k < len(ranked):
                continue
            if take_out:
                above -= 1
            else:
                below += 1
            _, w, g, steps, _ = ranked[k]
            now = max(steps) if take_out else 0
            # a state made is (room used, -gain, rank, steps, path before): its path is made if
            # it is kept (a state kept: rank -1, its own path)
            made: list[State] = [
                (u + w * (y - now), loss - g * (y - now), k, y, path)
                for y in steps
                if y != now
                for u, loss, _, _, path in states
            ]
            spent += len(states) + len(made)
            if spent > STATES:
                return None
            # the ratios the rest moves at: no better than the next item below (put in), no
            # worse than the next item above (taken out); none left: no move that way
            w_in, g_in = ranked[below][1:3] if below < len(ranked) else (1, 0)
            w_out, g_out = ranked[above][1:3] if above >= 0 else (0, 1)
            into, out = _beating(best, room, w_in, g_in, w_out, g_out)
            kept: list[State] = []
            most = -1  # gains are never negative
            for u, loss, rank, y, path in sorted(states + made):  # by room used, most gain first
                gain = -loss
                if gain <= most:
                    continue  # dominated: another uses less room for as much gain
                most = gain
                if u <= room:
                    if gain > best:
                        best, found = gain, path if rank < 0 else (rank, y, path)
                        into, out = _beating(best, room, w_in, g_in, w_out, g_out)
                    if gain * w_in - u * g_in < into:
                        continue
                elif gain * w_out - u * g_out < out:
                    continue
                kept.append((u, loss, -1, 0, path if rank < 0 else (rank, y, path)))
            states = kept
    if found is None:
        return cap + 1, None
    chosen = {k: max(ranked[k][3]) for k in range(whole)}  # the break's, then the path's changes
    while found:
        k, chosen[k], found = found
    point = {i: start for i, start, _, _, _ in items}
    signs = {i: s for i, _, s, _, _ in items}
    for k, y in chosen.items():
        i, unit = ranked[k][0], ranked[k][4]
        point[i] += signs[i] * y * unit
    return base - best, point


def _beating(best: int, room: int, w_in: int, g_in: int, w_out: int, g_out: int) -> tuple[int, int]:
    """What a state ``(u, gain)`` must reach to beat ``best``: within the room, ``gain + (room -
    u) * g_in / w_in > best``, that is ``gain * w_in - u * g_in >=`` the first; over it, taking
    out ``u - room`` at ``g_out / w_out``, ``gain * w_out - u * g_out >=`` the second."""
    return (best + 1) * w_in - room * g_in, (best + 1) * w_out - room * g_out
