"""Search trees as pictures: what propagation explores beside what plain backtracking does.

Two trees for the same n, on one self-contained HTML page:

* relqueens' labeling search, recorded by a :class:`~relqueens.fd.SearchTrace`:
  each node is a choice ``row = column``, after which propagation narrows
  every other row; red nodes failed, green ones are solutions;
* the ML seed's ``queenTreeGen`` (:func:`relqueens.reference.queen_tree`):
  each node is a safe partial board; a red node is a dead end.

>>> page = search_trees_html(4)
>>> page.count('class="tree-svg"'), 'relqueens labeling' in page
(2, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from . import fd
from .fd.answers import run
from .fd.terms import vars
from .fd.trace import FAILED, SOLUTION, SearchTrace
from .gallery import describe_pins
from .logic import eq
from .logic.goals import GoalLike
from .queens import queenso, symmetry_breako
from .reference import Branch, Solution, check_n, queen_tree
from .render import Page, html_page
from .squares import Pins, pins_of

MAX_N = 8
COLOURS = {"branch": "#777777", FAILED: "#d33c2c", SOLUTION: "#2a9d3a"}


@dataclass
class Shape:
    """A node to draw: a label, a status, children."""

    label: str
    status: str
    children: list[Shape] = field(default_factory=list)


def trace_shape(trace: SearchTrace, names: Mapping[Any, str]) -> Shape:
    """The recorded search as a drawable tree (several searches hang under one root)."""
    shapes = {}
    for node in trace.nodes:
        if node.parent is None:
            shapes[node.id] = Shape("start", node.status)
        else:
            label = f"{names.get(node.var, node.var)}={node.value}"
            shapes[node.id] = Shape(label, node.status)
            shapes[node.parent].children.append(shapes[node.id])
    roots = [shapes[n.id] for n in trace.roots()]
    return roots[0] if len(roots) == 1 else Shape("start", "branch", roots)


def ml_shape(tree: Branch | Solution) -> Shape:
    """The ML seed's search tree as a drawable tree."""

    def label(board: Sequence[int]) -> str:
        return f"r{len(board) - 1}={board[-1]}" if board else "start"

    root = Shape(label(tree.board), SOLUTION if isinstance(tree, Solution) else "branch")
    stack = [(tree, root)]
    while stack:
        node, shape = stack.pop()
        if isinstance(node, Solution):
            continue
        if not node.children:
            shape.status = FAILED
        for child in node.children:
            kid = Shape(label(child.board), SOLUTION if isinstance(child, Solution) else "branch")
            shape.children.append(kid)
            stack.append((child, kid))
    return root


def count(shape: Shape) -> dict[str, int]:
    """Nodes below the root, failures (dead ends) and solutions."""
    totals = {"nodes": 0, "failures": 0, "solutions": 0}
    stack = list(shape.children)
    while stack:
        s = stack.pop()
        totals["nodes"] += 1
        totals["failures"] += s.status == FAILED
        totals["solutions"] += s.status == SOLUTION
        stack.extend(s.children)
    return totals


def tree_svg(shape: Shape, *, dy: int = 44) -> str:
    """An SVG drawing: leaves evenly spaced, each parent centred over its children.

    Small trees (up to 400 nodes) get a label under each node; every node has
    a tooltip.
    """
    pos: dict[int, tuple[float, float]] = {}
    order: list[tuple[Shape, int]] = []
    stack = [(shape, 0, False)]
    leaves = 0
    small = count(shape)["nodes"] < 400
    dx = 30 if small else 12
    while stack:
        s, depth, done = stack.pop()
        if done or not s.children:
            if s.children:
                xs = [pos[id(c)][0] for c in s.children]
                x = (xs[0] + xs[-1]) / 2
            else:
                x = leaves * dx + dx
                leaves += 1
            pos[id(s)] = (x, depth * dy + 16)
            order.append((s, depth))
            continue
        stack.append((s, depth, True))
        stack.extend((c, depth + 1, False) for c in reversed(s.children))
    width = leaves * dx + dx * 2
    height = max(d for _, d in order) * dy + 40
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="tree-svg" width="{width:.0f}" '
            f'height="{height}" viewBox="0 0 {width:.0f} {height}">'
        )
    ]
    for s, _ in order:
        x, y = pos[id(s)]
        for c in s.children:
            cx, cy = pos[id(c)]
            parts.append(f'<line x1="{x:.1f}" y1="{y}" x2="{cx:.1f}" y2="{cy}" stroke="#bbb"/>')
    for s, _ in order:
        x, y = pos[id(s)]
        parts.append(
            f'<circle class="node {s.status}" cx="{x:.1f}" cy="{y}" r="5" fill="{COLOURS[s.status]}">'
            f"<title>{escape(s.label)} ({s.status})</title></circle>"
        )
        if small:
            parts.append(
                f'<text x="{x:.1f}" y="{y + 15}" font-size="8" font-family="sans-serif" '
                f'text-anchor="middle" fill="#333">{escape(s.label)}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


def queens_trace(
    n: int,
    *,
    pins: Pins = None,
    symmetry: bool = False,
    limit: int | None = None,
    max_nodes: int | None = None,
) -> tuple[SearchTrace, dict[Any, str]]:
    """Run the queens relation with a trace; return it and the rows' display names (in row order).

    ``limit`` stops after that many solutions; past ``max_nodes`` the search
    raises :class:`~relqueens.SearchLimit`.
    """
    cols = vars(n)
    trace = SearchTrace()
    goals: list[GoalLike] = [
        queenso(cols, n),
        *(eq(cols[r], c) for r, c in pins_of(pins, n).items()),
    ]
    if symmetry:
        goals.append(symmetry_breako(cols, n))
    run(limit or 0, cols, *goals, fd.label(cols, trace=trace), max_nodes=max_nodes)
    return trace, {c: f"r{i}" for i, c in enumerate(cols)}


def search_trees_html(n: int, *, pins: Pins = None, symmetry: bool = False) -> Page:
    """The page that shows both trees for n (at most 8), with their counts."""
    check_n(n)
    if n > MAX_N:
        raise ValueError(f"search trees are drawn for n <= {MAX_N}; n = {n} would not fit a page")
    trace, names = queens_trace(n, pins=pins, symmetry=symmetry)
    pinned = pins_of(pins, n)
    fd_tree = trace_shape(trace, names)
    ml_tree = ml_shape(queen_tree(n))
    sections = []
    for title, note, shape in (
        (
            "relqueens labeling, with propagation",
            (
                f"pins: {describe_pins(pinned)}; symmetry breaking: {'on' if symmetry else 'off'}. "
                "Each node is a choice row = column; propagation then narrows the other rows."
            ),
            fd_tree,
        ),
        (
            "plain backtracking (the ML seed's queenTreeGen)",
            (
                "No pins, no symmetry. Each node places the next row's queen on a column "
                "that no earlier queen attacks; a dead end has no safe column left."
            ),
            ml_tree,
        ),
    ):
        c = count(shape)
        sections.append(
            f'<section><h2>{escape(title)}</h2><p class="counts" data-nodes="{c["nodes"]}" '
            f'data-failures="{c["failures"]}" data-solutions="{c["solutions"]}">{c["nodes"]} nodes, '
            f"{c['failures']} failures, {c['solutions']} solutions. {escape(note)}</p>"
            f'<div class="scroll">{tree_svg(shape)}</div></section>'
        )
    legend = "".join(
        f'<span><svg width="12" height="12"><circle cx="6" cy="6" r="5" fill="{colour}"/></svg> {name}</span> '
        for name, colour in (
            ("branch", COLOURS["branch"]),
            ("failed / dead end", COLOURS[FAILED]),
            ("solution", COLOURS[SOLUTION]),
        )
    )
    return html_page(
        f"{n}-queens search trees",
        f"<h1>{n}-queens: what propagation explores, and what plain backtracking does</h1>"
        f"<p>{legend}</p>{''.join(sections)}",
        "body{font-family:sans-serif;margin:16px;color:#222}.scroll{overflow-x:auto;border:1px solid #ccc}"
        "section{margin-bottom:24px}h2{font-size:1.1em}",
    )
