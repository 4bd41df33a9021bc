"""The propagation stepper: one self-contained page that replays a recorded search, step by step.

The page holds the search as a :class:`~relqueens.fd.SearchTrace` recorded it
(each choice, the values propagation then removed and the constraint that
removed each, the dead ends) and a small inline script that replays it: no
network, no files beside it, it works from ``file://``.

Each choice is two steps: the choice itself, then what propagation did. When
the search backs up (after a dead end or a solution) a third step shows the
node it backs up to. The keys: → / ← next and previous step, ↓ or ``c`` the
next choice, ``s`` the next solution, Home the start, End the last step,
space (or ``p``) play and pause, ``+`` / ``-`` the speed.

Two views: :class:`QueensBoard` (the board, every square propagation ruled
out shaded by why: column, diagonal, anti-diagonal, symmetry, pin; the rows'
domains; and plain backtracking's counters beside relqueens') and
:class:`Grid` (cells with their candidate values, for any FD problem).

>>> page = queens_stepper_html(4)
>>> page.count('class="queen"') == 16, "4-queens" in page
(True, True)
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from html import escape
from typing import Any

from .fd.post import Distinct
from .fd.terms import Relation, lin
from .fd.trace import FAILED, SOLUTION, Node, SearchTrace
from .gallery import describe_pins
from .logic.limits import SearchLimit
from .logic.state import isvar
from .queens import queens
from .reference import Branch, Solution, check_n, queen_tree
from .render import PINNED, Page, coords_svg, crown_svg, html_page, squares_svg
from .squares import pins_of
from .treeview import queens_trace

MAX_STEPS = 10_000
"""The most steps one page replays (n = 8 with every solution takes 1,670)."""

MAX_N = 16
"""The largest board the queens stepper draws."""

CHOOSE, PROPAGATE, BACK, START = 0, 1, 2, 3
STATUS = {"branch": 0, FAILED: 1, SOLUTION: 2}
BEFORE = "before the search"
COLOURS = {
    "pin": "#c0392b",
    "column": "#2f6fdf",
    "diagonal": "#e67e22",
    "anti-diagonal": "#8e44ad",
    "symmetry": "#16a085",
    "propagation": "#7f8c8d",
    BEFORE: "#c8c8c8",
}
"""The colours of the reasons the views name; others take :data:`PALETTE`'s, in turn."""
PALETTE = ("#2a9d3a", "#e67e22", "#8e44ad", "#b7950b", "#d35400", "#16a085", "#7f8c8d")


def steps(trace: SearchTrace) -> list[tuple[int, int]]:
    """The replay: ``(phase, node id)`` pairs, phases ``START``, ``CHOOSE``, ``PROPAGATE``, ``BACK``.

    >>> from relqueens import SearchTrace, queens
    >>> t = SearchTrace()
    >>> _ = queens(4, trace=t)
    >>> steps(t)[:5]
    [(3, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
    """
    out: list[tuple[int, int]] = []
    for node in trace.nodes:
        if node.parent is None:
            out.append((START, node.id))
            continue
        if out[-1][1] != node.parent:
            out.append((BACK, node.parent))
        out += [(CHOOSE, node.id), (PROPAGATE, node.id)]
    return out


class Layout(ABC):
    """How the stepper draws a trace's variables: which ones, their names and the values shown.

    ``kind(constraint)`` names why a value went (the label shaded on the page);
    ``start(root)`` lists ``(variable index, value, label)`` for values shown
    but already gone when the search started. ``listed``: the page also lists
    every variable's domain.
    """

    view = ""
    kinds: tuple[str, ...] = ()
    listed = False
    note = ""

    def __init__(
        self, variables: Sequence[Any], names: Sequence[str], values: Sequence[Sequence[int]]
    ) -> None:
        self.variables, self.names = list(variables), list(names)
        self.values = [list(v) for v in values]

    def kind(self, constraint: object) -> str:
        """The label of the reason a constraint removes values."""
        if constraint is None:
            return "propagation"
        if isinstance(constraint, Relation):
            return constraint.op
        return getattr(constraint, "name", type(constraint).__name__)

    def start(self, root: Node) -> list[tuple[int, int, str]]:
        """The values shown that were gone before the search (posting propagated them away)."""
        return [
            (k, value, BEFORE)
            for k, v in enumerate(self.variables)
            if isvar(v) and v in root.narrowed
            for value in self.values[k]
            if value not in root.narrowed[v][1]
        ]

    @abstractmethod
    def html(self) -> str:
        """The static view the script fills in."""

    def data(self) -> dict[str, Any]:
        """What the script needs to know about the view."""
        return {"view": self.view}


class Grid(Layout):
    """Variables laid out in rows of cells, each cell showing its candidate values shrink.

    ``cells`` is a list of rows of variables (an integer stands for a given
    value); ``values`` the candidates every cell shows (default: each
    variable's domain at the start); ``kind`` names the reason a constraint
    removes values (default: the constraint's kind, such as ``distinct``);
    ``box`` draws a thicker line every ``box`` cells (3 for a Sudoku).

    >>> from relqueens import SearchTrace, fd, run, vars
    >>> a, b = vars(2)
    >>> t = SearchTrace()
    >>> run(0, [a, b], fd.in_(a, b, fd.interval(1, 2)), fd.distinct([a, b]), fd.label([a, b], trace=t))
    ([1, 2], [2, 1])
    >>> "cell" in stepper_html(t, layout=Grid([[a, b]], values=[1, 2]))
    True
    """

    view = "grid"

    def __init__(
        self,
        cells: Sequence[Sequence[Any]],
        *,
        values: Sequence[int] | None = None,
        kind: Callable[[object], str | None] | None = None,
        box: int | None = None,
    ) -> None:
        rows = [list(r) for r in cells]
        if not rows or any(len(r) != len(rows[0]) for r in rows):
            raise ValueError("a grid is a non-empty list of rows of the same length")
        flat = [c for r in rows for c in r]
        shown = [[c] if not isvar(c) else list(values) if values is not None else [] for c in flat]
        super().__init__(
            flat,
            [f"r{k // len(rows[0]) + 1}c{k % len(rows[0]) + 1}" for k in range(len(flat))],
            shown,
        )
        self.width, self.box, self._kind, self._fill = len(rows[0]), box, kind, values is None

    def kind(self, constraint: object) -> str:
        named = self._kind(constraint) if self._kind is not None else None
        return named if named is not None else super().kind(constraint)

    def start(self, root: Node) -> list[tuple[int, int, str]]:
        if self._fill:  # candidates: each variable's domain at the (first) start
            for k, v in enumerate(self.variables):
                if isvar(v) and not self.values[k] and v in root.narrowed:
                    self.values[k] = list(root.narrowed[v][1])  # type: ignore[arg-type]  # a bitset Domain: the root holds no Wide
        return super().start(root)

    def html(self) -> str:
        cells = []
        for k, (v, name) in enumerate(zip(self.variables, self.names)):
            r, c = divmod(k, self.width)
            edge = "".join(
                f" {side}"
                for side, at in (("bt", r), ("bl", c))
                if self.box and at and at % self.box == 0
            )
            given = "" if isvar(v) else f' data-given="{v}"'
            cells.append(
                f'<div class="cell{edge}" data-var="{k}" title="{escape(name)}"{given}><span class="big"></span>'
                f'<span class="cands">{"".join(f"<i data-v={x}>{x}</i>" for x in self.values[k])}</span></div>'
            )
        return f'<div class="grid" style="grid-template-columns:repeat({self.width},auto)">{"".join(cells)}</div>'


class QueensBoard(Layout):
    """The n-queens board: row ``r``'s variable is ``cols[r]``, its values the columns.

    Removed squares are shaded by why: the queen's ``column``, its
    ``diagonal`` (down to the right) or ``anti-diagonal`` (down to the left),
    ``symmetry`` breaking, or a ``pin``.
    """

    view = "queens"
    listed = True
    kinds = ("pin", "column", "diagonal", "anti-diagonal", "symmetry", "propagation")

    def __init__(
        self, cols: Sequence[Any], pins: Mapping[int, int] | None = None, symmetry: bool = False
    ) -> None:
        n = len(cols)
        super().__init__(cols, [f"r{i}" for i in range(n)], [range(n)] * n)
        self.n, self.pins, self.symmetry = n, dict(pins or {}), symmetry
        self.row = {v: i for i, v in enumerate(cols)}
        self.note = (
            f"Rows r0..r{n - 1} are ranks 1..{n}, their values the columns 0..{n - 1} (files a..{chr(96 + n)}). "
            "Queens: black, chosen; grey, forced by propagation; red, pinned."
        )

    def kind(self, constraint: object) -> str:
        if isinstance(constraint, Distinct):
            return "column"
        if isinstance(constraint, Relation) and constraint.op == "!=":
            expr = lin(constraint.lhs) - lin(
                constraint.rhs
            )  # q[a] - q[b] + k != 0: q[a] - q[b] == -k attacks
            rows = {self.row.get(v): c for v, c in expr.terms.items()}
            if len(rows) == 2 and None not in rows and sorted(rows.values()) == [-1, 1]:
                a, b = (r for r, c in sorted(rows.items(), key=lambda rc: -rc[1]))
                return "diagonal" if -expr.const * (a - b) > 0 else "anti-diagonal"  # type: ignore[operator]  # None is not in rows
        return "symmetry" if constraint is not None else "propagation"

    def start(self, root: Node) -> list[tuple[int, int, str]]:
        """Before the search: a pinned row's other squares, and what the queens fixed then attack."""
        doms = [set(root.narrowed[v][1]) for v in self.variables]  # type: ignore[arg-type]  # a bitset Domain: the root holds no Wide
        queens = [(r, min(d)) for r, d in enumerate(doms) if len(d) == 1]
        gone = []
        for r, d in enumerate(doms):
            for c in range(self.n):
                if c not in d:
                    gone.append((r, c, "pin" if r in self.pins else self._attacked(r, c, queens)))
        return gone

    def _attacked(self, r: int, c: int, queens: list[tuple[int, int]]) -> str:
        for qr, qc in queens:
            if qr != r:
                if qc == c:
                    return "column"
                if qc - c == qr - r:
                    return "diagonal"
                if qc - c == r - qr:
                    return "anti-diagonal"
        return "symmetry" if self.symmetry else "propagation"

    def html(self) -> str:
        n = self.n
        cell = 44 if n <= 8 else max(20, 352 // n)
        margin = cell // 2
        side = n * cell + margin
        shades = "".join(
            f'<rect class="sq" data-r="{r}" data-c="{c}" x="{margin + c * cell}" y="{r * cell}" '
            f'width="{cell}" height="{cell}"/>'
            for r in range(n)
            for c in range(n)
        )
        marks = "".join(
            f'<rect class="rowmark" data-r="{r}" x="{margin + 1}" y="{r * cell + 1}" width="{n * cell - 2}" '
            f'height="{cell - 2}"/>'
            for r in range(n)
        )
        crowns = "".join(
            crown_svg(margin + c * cell, r * cell, cell, PINNED, False, r, c)
            for r in range(n)
            for c in range(n)
        )
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="board-svg" width="{side}" height="{side}" '
            f'viewBox="0 0 {side} {side}" role="img" aria-label="the board">'
            f"{squares_svg(n, cell, margin)}{shades}{marks}{crowns}{coords_svg(n, cell, margin)}</svg>"
        )

    def data(self) -> dict[str, Any]:
        return {"view": "queens", "n": self.n, "pins": sorted(self.pins)}


def _json(data: object) -> str:
    """JSON that is safe inside a ``<script>`` element (no ``<``, ``>`` or ``&`` in it)."""
    text = json.dumps(data, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _trace_data(trace: SearchTrace, layout: Layout) -> dict[str, Any]:
    """The trace as flat arrays, for the script: variables are the layout's positions, reasons are labels' numbers."""
    if not trace.nodes:
        raise ValueError(
            "the trace is empty: pass it to a search (fd.label(..., trace=t)) and run that first"
        )
    order = steps(trace)
    if len(order) > MAX_STEPS:
        raise ValueError(
            f"the search takes {len(order):,} steps; a stepper page replays at most {MAX_STEPS:,} "
            "(ask for fewer solutions, or a smaller problem)"
        )
    index = {v: k for k, v in enumerate(layout.variables) if isvar(v)}
    kinds = {k: i for i, k in enumerate(layout.kinds)}

    def label(name: str) -> int:
        return kinds.setdefault(name, len(kinds))

    nodes: dict[str, list[Any]] = {
        key: [] for key in ("parent", "var", "value", "status", "emptied", "conflict", "pruned")
    }
    for node in trace.nodes:
        if node.parent is None:
            pruned = [x for k, value, why in layout.start(node) for x in (k, value, label(why))]
        else:
            pruned = [
                x
                for v, values in node.pruned.items()
                if v in index
                for value, cause in values.items()
                for x in (index[v], value, label(layout.kind(cause)))
            ]
        nodes["parent"].append(-1 if node.parent is None else node.parent)
        nodes["var"].append(index.get(node.var, -1))
        nodes["value"].append(node.value if isinstance(node.value, int) else None)
        nodes["status"].append(STATUS[node.status])
        nodes["emptied"].append(index.get(node.emptied, -1))
        nodes["conflict"].append(-1 if node.conflict is None else label(layout.kind(node.conflict)))
        nodes["pruned"].append(pruned)
    return {
        "layout": layout.data(),
        "names": layout.names,
        "values": layout.values,
        "kinds": list(kinds),
        "nodes": nodes,
        "steps": [x for step in order for x in step],
    }


def _plural(k: int, what: str) -> str:
    return f"{k} {what}{'' if k == 1 else 's'}"


def _legend(data: dict[str, Any]) -> str:
    """The colour of each reason the page shows."""
    nodes = data["nodes"]
    used = {k for pruned in nodes["pruned"] for k in pruned[2::3]} | set(nodes["conflict"])
    return "".join(
        f'<span class="key"><b class="k{i}"></b>{escape(k)}</span>'
        for i, k in enumerate(data["kinds"])
        if i in used
    )


def _page(
    trace: SearchTrace,
    layout: Layout,
    title: str,
    summary: str,
    baseline: dict[str, Any] | None = None,
) -> Page:
    data = _trace_data(trace, layout)
    data["baseline"] = baseline
    others = iter(PALETTE * (len(data["kinds"]) // len(PALETTE) + 1))
    fills = [COLOURS.get(k) or next(others) for k in data["kinds"]]
    colours = "".join(f".k{i}{{background:{c};fill:{c}}}" for i, c in enumerate(fills))
    columns = ["relqueens<br><small>(labeling with propagation)</small>"]
    if baseline:
        columns.append("plain backtracking<br><small>(the ML seed's queenTreeGen)</small>")
    rows = [f"<tr><th></th>{''.join(f'<th>{c}</th>' for c in columns)}</tr>"]
    for key, label in (
        ("step", "step"),
        ("choices", "choices / nodes"),
        ("dead", "dead ends"),
        ("solutions", "solutions"),
    ):
        cells = [f'<span id="{key}">0</span> of <span id="{key}-total"></span>']
        if baseline:
            cells.append(
                ""
                if key == "step"
                else f'<span id="ml-{key}">0</span> of <span id="ml-{key}-total"></span>'
            )
        rows.append(f"<tr><th>{label}</th>{''.join(f'<td>{c}</td>' for c in cells)}</tr>")
    body = (
        f'<h1>{escape(title)}</h1><p class="summary">{escape(summary)}</p>'
        '<div class="controls">'
        '<button id="start" title="back to the start (Home)">start</button>'
        '<button id="prev" title="previous step (&#x2190;)">&#x25C0; step</button>'
        '<button id="next" title="next step (&#x2192;)">step &#x25B6;</button>'
        '<button id="choice" title="next choice (&#x2193; or c)">next choice</button>'
        '<button id="solution" title="next solution (s)">next solution</button>'
        '<button id="play" title="play / pause (space or p)">play</button>'
        '<label>speed <input id="speed" type="range" min="0" max="6" value="3"> <span id="rate"></span></label>'
        "</div>"
        f'<div class="main"><div class="view">{layout.html()}</div><div class="side">'
        f'<table class="counters">{"".join(rows)}</table>'
        f'<p id="message" aria-live="polite"></p><div class="legend">{_legend(data)}</div>'
        f'<p class="note">{escape(layout.note)}</p>'
        f"{'<ol class=domains></ol>' if layout.listed else ''}</div></div>"
        '<p class="keys">Keys: &#x2192; / &#x2190; next / previous step, &#x2193; or c next choice, '
        "s next solution, Home start, End last step, space play / pause, + / - speed.</p>"
        f'<script id="trace-data" type="application/json">{_json(data)}</script><script>{_SCRIPT}</script>'
    )
    return html_page(title, body, " ".join(_STYLE.split()) + colours)


def stepper_html(trace: SearchTrace, *, layout: Layout, title: str | None = None) -> Page:
    """One self-contained page that replays ``trace`` step by step, drawn by ``layout`` (a :class:`Grid`).

    Refuses (``ValueError``) a trace of more than :data:`MAX_STEPS` steps.
    """
    counts = trace.counts()
    summary = f"{counts['nodes']} choices, {counts['failures']} dead ends, {_plural(counts['solutions'], 'solution')}"
    return _page(trace, layout, title or "A search, step by step", summary)


def _plain_walk(n: int, pins: Mapping[int, int]) -> Iterator[tuple[tuple[int, ...], bool, bool]]:
    """Plain backtracking (the ML seed's ``queenTreeGen``, a pinned row offering only its column), depth first.

    Yields ``(board, dead end?, solution?)`` for each node below the root.
    """

    def children(node: Branch) -> list[Branch | Solution]:
        return [c for c in node.children if pins.get(len(c.board) - 1, c.board[-1]) == c.board[-1]]

    stack = list(reversed(children(queen_tree(n)))) if n else []  # type: ignore[arg-type]  # n > 0: a Branch
    while stack:
        node = stack.pop()
        below = children(node) if isinstance(node, Branch) else []
        yield node.board, isinstance(node, Branch) and not below, isinstance(node, Solution)
        stack.extend(reversed(below))


def _baseline(trace: SearchTrace, layout: QueensBoard, complete: bool) -> dict[str, Any]:
    """Plain backtracking's counters (nodes, dead ends, solutions) at the same point as each step of relqueens'.

    Both searches go through the boards in lexicographic order, so plain
    backtracking reaches, in order, each choice's board (the rows down to the
    chosen one) and the board propagation then fixed (down to the first row
    left open). ``at[k]`` holds both counts for node ``k``; with ``complete``,
    ``total`` holds plain backtracking's totals.
    """
    walk = _plain_walk(layout.n, layout.pins)
    seen = [0, 0, 0]

    def reach(board: list[int | None]) -> list[int]:
        target = tuple(board[: board.index(None)] if None in board else board)
        if found_so_far[0] == target:
            return seen[:]
        for found, dead, solution in walk:
            seen[:] = [seen[0] + 1, seen[1] + dead, seen[2] + solution]
            if found == target:
                found_so_far[0] = target
                return seen[:]
        raise ValueError(
            f"plain backtracking never reaches the board {target}: label rows in order, columns up"
        )

    found_so_far: list[tuple[int | None, ...]] = [()]
    at: list[list[list[int]]] = []
    fixed: dict[int, list[int | None]] = {}
    for node in trace.nodes:
        if node.parent is None:
            fixed[node.id] = [
                min(d) if len(d) == 1 else None  # type: ignore[arg-type]  # a bitset Domain: the root holds no Wide
                for d in (node.narrowed[v][1] for v in layout.variables)
            ]
            at.append([[0, 0, 0], [0, 0, 0]])
            continue
        board = fixed[node.parent][:]
        board[layout.row[node.var]] = node.value  # type: ignore[assignment]  # enum branching: an int
        chosen = reach(board)
        if node.status != FAILED:
            for v, (_, after) in node.narrowed.items():
                if v in layout.row and len(after) == 1:
                    board[layout.row[v]] = min(after)  # type: ignore[arg-type]  # queens' rows: bitset Domains
        at.append([chosen, reach(board)])
        fixed[node.id] = board
    if complete:
        for _, dead, solution in walk:
            seen[:] = [seen[0] + 1, seen[1] + dead, seen[2] + solution]
    return {"at": at, "total": seen if complete else None}


def queens_stepper_html(
    n: int,
    *,
    pins: Mapping[int, int] | Sequence[Any] | str | None = None,
    symmetry: bool = False,
    limit: int | None = None,
    title: str | None = None,
) -> Page:
    """The stepper page for n-queens (``n`` up to :data:`MAX_N`): every solution, or the first ``limit``.

    Labeling is the seed's (rows top to bottom, columns left to right), so
    plain backtracking's counters beside relqueens' compare the same walk
    through the boards. Refuses, with the reason, a search of more than
    :data:`MAX_STEPS` steps.

    >>> page = queens_stepper_html(8, pins=["a1"], title="a1 <pinned>")
    >>> "a1 &lt;pinned&gt;" in page, "<pinned>" in page
    (True, False)
    """
    check_n(n)
    if not 1 <= n <= MAX_N:
        raise ValueError(f"the stepper draws boards of 1 to {MAX_N} rows, not {n}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise ValueError(f"limit must be a positive integer, got {limit!r}")
    pinned = pins_of(pins, n)
    try:
        trace, names = queens_trace(
            n, pins=pinned, symmetry=symmetry, limit=limit, max_nodes=MAX_STEPS
        )
    except SearchLimit:
        raise ValueError(
            f"n = {n}{' with these pins' if pinned else ''}: "
            f"{'these solutions take' if limit else 'every solution takes'} more than {MAX_STEPS:,} steps, "
            f"the most a stepper page replays; ask for fewer with a limit (--limit K)"
        ) from None
    if not trace.nodes:
        solved = bool(queens(n, pins=pinned, symmetry=symmetry, limit=1))
        raise ValueError(
            f"n = {n}: there is no search to step through: the constraints alone "
            + (
                "settle the board"
                if solved
                else "fail before any choice (do the pins attack each other?)"
            )
        )
    layout = QueensBoard(list(names), pinned, symmetry)
    counts = trace.counts()
    complete = limit is None or counts["solutions"] < limit
    summary = (
        f"n = {n} · pins: {describe_pins(pinned)} · symmetry breaking: {'on' if symmetry else 'off'} · "
        f"{_plural(counts['solutions'], 'solution')}"
        f"{'' if complete else ' (the first ' + str(limit) + ')'} · {counts['nodes']} choices"
    )
    return _page(
        trace,
        layout,
        title or f"{n}-queens, step by step",
        summary,
        _baseline(trace, layout, complete),
    )


_STYLE = """
body { font-family: sans-serif; margin: 16px; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 4px; } p.summary { margin: 0 0 10px; color: #444; }
.controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-bottom: 10px; }
button { font-size: 14px; padding: 4px 10px; cursor: pointer; }
.main { display: flex; gap: 20px; align-items: flex-start; flex-wrap: wrap; }
.side { min-width: 300px; max-width: 460px; }
table.counters { border-collapse: collapse; font-size: 14px; margin-bottom: 8px; }
table.counters th, table.counters td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
#message { min-height: 3em; font-size: 15px; }
#message.failed { color: #b03020; } #message.solution { color: #1e7d32; font-weight: bold; }
.legend { font-size: 13px; margin: 6px 0; } .legend .key { margin-right: 10px; white-space: nowrap; }
.legend b { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: middle; opacity: .7; }
ol.domains { font-family: monospace; font-size: 14px; padding-left: 0; list-style: none; margin: 6px 0; }
ol.domains li.dead { color: #b03020; font-weight: bold; } ol.domains li.fixed { color: #555; }
.keys, .note { font-size: 12px; color: #555; }
.sq { fill: transparent; } .sq[data-state=out] { fill-opacity: .8; }
.sq.fresh { stroke: #111; stroke-width: 2; }
.rowmark { fill: none; stroke: none; } .rowmark[data-state=dead] { stroke: #d00; stroke-width: 4; }
.board-svg .queen { display: none; } .board-svg .queen[data-state] { display: inline; }
.board-svg .queen[data-state=chosen] { fill: #111; } .board-svg .queen[data-state=forced] { fill: #9a9a9a; }
.board-svg .queen[data-state=new] { fill: #111; stroke: #f1c40f; stroke-width: 3; }
.grid { display: inline-grid; border: 3px solid #333; }
.cell { width: 46px; height: 46px; border: 1px solid #bbb; position: relative; background: #fff; }
.cell.bt { border-top: 3px solid #333; } .cell.bl { border-left: 3px solid #333; }
.cell .cands { display: grid; grid-template-columns: repeat(3, 1fr); font-size: 11px; line-height: 15px;
  text-align: center; color: #333; }
.cell .cands i { font-style: normal; border-radius: 3px; }
.cell .cands i[data-state=out] { color: #fff; opacity: .75; } .cell .cands i[data-state=gone] { visibility: hidden; }
.cell .cands i.fresh { outline: 2px solid #111; }
.cell .big { position: absolute; inset: 0; display: none; font-size: 26px; text-align: center; line-height: 46px; }
.cell[data-state=fixed] .big { display: block; } .cell[data-state=fixed] .cands { display: none; }
.cell .big { color: #8a8a8a; } .cell[data-how=chosen] .big { color: #2f6fdf; }
.cell[data-given] .big { color: #111; font-weight: bold; }
.cell.chosen { background: #fff3c4; } .cell[data-state=dead] { background: #f6c9c4; }
"""

_SCRIPT = r"""
(function () {
"use strict";
var D = JSON.parse(document.getElementById("trace-data").textContent);
var N = D.nodes, S = D.steps, last = S.length / 2 - 1, B = D.baseline;
var CHOOSE = 0, PROPAGATE = 1, BACK = 2, START = 3;
var RATES = [1, 2, 5, 10, 25, 100, 500];
var el = function (id) { return document.getElementById(id); };
var count = {choices: [], dead: [], solutions: [], ml: []};
(function () {
  var c = 0, f = 0, m = 0, ml = [0, 0, 0];
  for (var s = 0; s <= last; s++) {
    var ph = S[2 * s], k = S[2 * s + 1];
    if (ph === CHOOSE) c++;
    if (B && (ph === CHOOSE || ph === PROPAGATE)) ml = B.at[k][ph];
    if (ph === PROPAGATE || ph === START) { f += N.status[k] === 1; m += N.status[k] === 2; }
    count.choices.push(c); count.dead.push(f); count.solutions.push(m); count.ml.push(ml);
  }
})();
var totals = {step: last, choices: count.choices[last], dead: count.dead[last], solutions: count.solutions[last]};
Object.keys(totals).forEach(function (key) { el(key + "-total").textContent = totals[key]; });
if (B) ["choices", "dead", "solutions"].forEach(function (key, i) {
  el("ml-" + key + "-total").textContent = B.total ? B.total[i] : "?";
});

function state(k, ph) {
  // the domains at a step on node k: its choice, then (but for CHOOSE) its propagation
  var path = [];
  for (var j = k; j >= 0; j = N.parent[j]) path.push(j);
  var dom = D.values.map(function (v) { return new Set(v); });
  var why = D.values.map(function () { return new Map(); });
  var chosen = new Set(), fresh = new Set();
  for (var p = path.length - 1; p >= 0; p--) {
    var n = path[p], v = N["var"][n];
    if (v >= 0) { dom[v] = new Set([N.value[n]]); chosen.add(v); }
    if (p === 0 && ph === CHOOSE) break;
    var pr = N.pruned[n];
    for (var i = 0; i < pr.length; i += 3) {
      dom[pr[i]].delete(pr[i + 1]);
      why[pr[i]].set(pr[i + 1], pr[i + 2]);
      if (p === 0 && ph === PROPAGATE) fresh.add(pr[i] + ":" + pr[i + 1]);
    }
  }
  return {dom: dom, why: why, chosen: chosen, fresh: fresh};
}

function name(v) { return v >= 0 ? D.names[v] : "a variable out of view"; }
function set(dom) { return "{" + Array.from(dom).sort(function (a, b) { return a - b; }).join(", ") + "}"; }
function tally(k) {
  var by = {}, pr = N.pruned[k], parts = [];
  for (var i = 2; i < pr.length; i += 3) by[pr[i]] = (by[pr[i]] || 0) + 1;
  Object.keys(by).forEach(function (w) { parts.push(by[w] + " by " + D.kinds[w]); });
  return parts.length ? parts.join(", ") : "nothing";
}

function message(s, ph, k, st) {
  var text, cls = "";
  if (ph === START) text = "The start: the domains once the constraints are posted" +
    (N.pruned[k].length ? " (shaded: ruled out before the search)" : "") + ". Press \u2192 to step.";
  else if (ph === CHOOSE) text = "Choice " + count.choices[s] + ": " + name(N["var"][k]) + " = " + N.value[k] +
    (D.layout.view === "queens" ? ", a queen on " + "abcdefghijklmnop"[N.value[k]] + (N["var"][k] + 1) : "") + ".";
  else if (ph === PROPAGATE) {
    text = "Propagation after " + name(N["var"][k]) + " = " + N.value[k] + " removes " + tally(k) + ".";
    if (N.status[k] === 1) {
      cls = "failed";
      var e = N.emptied[k], c = N.conflict[k];
      text += " Dead end: " + (e >= 0 ? name(e) + " has no value left" : "no value fits") +
        (c >= 0 ? " (" + D.kinds[c] + ")" : "") + "; the search backs up.";
    } else if (N.status[k] === 2) {
      cls = "solution";
      text += " Solution " + count.solutions[s] + ": [" + st.dom.map(function (d) { return Array.from(d)[0]; }).join(", ") + "].";
    }
  } else {
    var nxt = S[2 * s + 3];
    text = "Back up to " + (N.parent[k] < 0 ? "the start" : name(N["var"][k]) + " = " + N.value[k]) +
      " and try " + name(N["var"][nxt]) + "'s next value.";
  }
  if (s === last) text += " End of the replay: " + count.solutions[s] + (count.solutions[s] === 1 ? " solution." : " solutions.");
  el("message").textContent = text;
  el("message").className = cls;
}

function drawQueens(st, ph, k, dead) {
  var pins = new Set(D.layout.pins);
  var board = document.querySelector(".board-svg");
  board.querySelectorAll(".sq").forEach(function (sq) {
    var r = +sq.getAttribute("data-r"), c = +sq.getAttribute("data-c"), w = st.why[r].get(c);
    if (st.dom[r].has(c)) { sq.setAttribute("data-state", st.dom[r].size === 1 ? "queen" : "free"); sq.removeAttribute("data-why"); sq.setAttribute("class", "sq"); }
    else if (w !== undefined) {
      sq.setAttribute("data-state", "out"); sq.setAttribute("data-why", D.kinds[w]);
      sq.setAttribute("class", "sq k" + w + (st.fresh.has(r + ":" + c) ? " fresh" : ""));
    } else { sq.setAttribute("data-state", "taken"); sq.removeAttribute("data-why"); sq.setAttribute("class", "sq"); }
  });
  board.querySelectorAll(".queen").forEach(function (q) {
    var r = +q.getAttribute("data-row"), c = +q.getAttribute("data-col");
    if (st.dom[r].size === 1 && st.dom[r].has(c)) {
      var kind = pins.has(r) ? "pinned" : !st.chosen.has(r) ? "forced" :
        ph === CHOOSE && N["var"][k] === r ? "new" : "chosen";
      q.setAttribute("data-state", kind);
    } else q.removeAttribute("data-state");
  });
  board.querySelectorAll(".rowmark").forEach(function (m) {
    if (+m.getAttribute("data-r") === dead) m.setAttribute("data-state", "dead"); else m.removeAttribute("data-state");
  });
}

function listDomains(st, dead) {
  var list = document.querySelector("ol.domains");
  if (!list) return;
  list.textContent = "";
  st.dom.forEach(function (d, v) {
    var li = document.createElement("li");
    li.setAttribute("data-var", v);
    li.className = v === dead ? "dead" : d.size === 1 ? "fixed" : "";
    li.textContent = D.names[v] + ": " + set(d) + (v === dead ? "  \u2190 empty: dead end" : "");
    list.appendChild(li);
  });
}

function drawGrid(st, ph, k, dead) {
  document.querySelectorAll(".cell").forEach(function (cell) {
    var v = +cell.getAttribute("data-var"), d = st.dom[v];
    cell.setAttribute("data-state", v === dead ? "dead" : d.size === 1 ? "fixed" : "open");
    cell.classList.toggle("chosen", ph !== START && ph !== BACK && N["var"][k] === v);
    cell.setAttribute("data-how", st.chosen.has(v) ? "chosen" : "forced");
    cell.querySelector(".big").textContent = d.size === 1 ? Array.from(d)[0] : "";
    cell.querySelectorAll(".cands i").forEach(function (i) {
      var x = +i.getAttribute("data-v"), w = st.why[v].get(x);
      if (d.has(x)) { i.setAttribute("data-state", "in"); i.className = ""; i.removeAttribute("title"); }
      else if (w !== undefined) {
        i.setAttribute("data-state", "out"); i.setAttribute("title", D.kinds[w]);
        i.className = "k" + w + (st.fresh.has(v + ":" + x) ? " fresh" : "");
      } else { i.setAttribute("data-state", "gone"); i.className = ""; }
    });
  });
}

var at = 0, timer = null;
function show(s) {
  at = Math.max(0, Math.min(last, s));
  var ph = S[2 * at], k = S[2 * at + 1], st = state(k, ph);
  var dead = ph === PROPAGATE && N.status[k] === 1 ? N.emptied[k] : -1;
  (D.layout.view === "queens" ? drawQueens : drawGrid)(st, ph, k, dead);
  listDomains(st, dead);
  message(at, ph, k, st);
  el("step").textContent = at;
  ["choices", "dead", "solutions"].forEach(function (key, i) {
    el(key).textContent = count[key][at];
    if (B) el("ml-" + key).textContent = count.ml[at][i];
  });
  document.body.setAttribute("data-step", at);
  if (at === last) pause();
}
function seek(test) { for (var s = at + 1; s <= last; s++) if (test(S[2 * s], S[2 * s + 1])) return show(s); show(last); }
function nextChoice() { seek(function (ph) { return ph === CHOOSE; }); }
function nextSolution() { seek(function (ph, k) { return ph === PROPAGATE && N.status[k] === 2; }); }
function rate() { return RATES[+el("speed").value]; }
function pause() { if (timer) clearInterval(timer); timer = null; el("play").textContent = "play"; }
function play() {
  if (timer) return pause();
  if (at === last) show(0);
  el("play").textContent = "pause";
  timer = setInterval(function () { show(at + 1); }, 1000 / rate());
}
function speed(delta) {
  var sp = el("speed");
  sp.value = Math.max(0, Math.min(RATES.length - 1, +sp.value + delta));
  el("rate").textContent = rate() + " steps/s";
  if (timer) { pause(); play(); }
}
el("start").onclick = function () { show(0); };
el("prev").onclick = function () { show(at - 1); };
el("next").onclick = function () { show(at + 1); };
el("choice").onclick = nextChoice;
el("solution").onclick = nextSolution;
el("play").onclick = play;
el("speed").oninput = function () { speed(0); };
var KEYS = {
  ArrowRight: el("next").onclick, ArrowLeft: el("prev").onclick, ArrowDown: nextChoice, c: nextChoice,
  s: nextSolution, Home: el("start").onclick, End: function () { show(last); }, " ": play, p: play,
  "+": function () { speed(1); }, "-": function () { speed(-1); }
};
document.addEventListener("keydown", function (e) {
  var act = KEYS[e.key];
  if (act && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); act(); }
});
speed(0);
show(0);
// A test hook: "#press=ArrowRight*5,s" presses those keys once the page is loaded.
var press = /press=([^&]*)/.exec(decodeURIComponent(location.hash));
if (press) press[1].split(",").forEach(function (item) {
  var m = /^(.*?)(?:\*(\d+))?$/.exec(item), times = m[2] ? +m[2] : 1;
  for (var i = 0; i < times; i++) document.dispatchEvent(new KeyboardEvent("keydown", {key: m[1] === "Space" ? " " : m[1]}));
});
})();
"""
