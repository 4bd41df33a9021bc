"""Boards as pictures: the seed's text ``print-board``, self-contained SVG, and the pages that hold them.

Boards are drawn as the seeds draw them: row 0 (rank 1) at the top, column 0
(file ``a``) on the left, the square at row 0, column 0 light. Found queens
are black; pinned queens (placed in advance) are red.

>>> print(board_text([1, 3, 0, 2], coords=True, unicode=True))
1 · ♕ · ·
2 · · · ♕
3 ♕ · · ·
4 · · ♕ ·
  a b c d
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from html import escape

from .squares import square

LIGHT, DARK = "#eeeed2", "#769656"
QUEEN, PINNED = "#111111", "#c0392b"


def _check(board: Sequence[int]) -> tuple[int, ...]:
    b = tuple(board)
    for row, col in enumerate(b):
        if isinstance(col, bool) or not isinstance(col, int) or not 0 <= col < len(b):
            raise ValueError(f"row {row} of the board holds {col!r}, not a column 0..{len(b) - 1}")
    return b


def _files(n: int) -> list[str]:
    return [square(0, c)[0] if c < 26 else str(c) for c in range(n)]


def board_text(board: Sequence[int], *, unicode: bool = False, coords: bool = False) -> str:
    """One line per row, ``Q`` where the queen stands and ``.`` elsewhere (the seed's ``print-board``).

    ``unicode=True`` draws ``♕`` and ``·``; ``coords=True`` adds ranks on the
    left and files below.

    >>> print(board_text([1, 3, 0, 2]))
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """
    b = _check(board)
    n = len(b)
    queen, empty = ("♕", "·") if unicode else ("Q", ".")
    width = len(str(n))
    lines = []
    for row, col in enumerate(b):
        cells = " ".join(queen if c == col else empty for c in range(n))
        lines.append(f"{row + 1:>{width}} {cells}" if coords else cells)
    if coords:
        lines.append(" " * width + " " + " ".join(_files(n)))
    return "\n".join(lines)


def crown_svg(x: float, y: float, s: float, fill: str, pinned: bool, row: int, col: int) -> str:
    """A queen drawn as a crown, centred in the square of side ``s`` at ``(x, y)``."""
    pts = [
        (0.2, 0.75),
        (0.15, 0.32),
        (0.33, 0.55),
        (0.5, 0.22),
        (0.67, 0.55),
        (0.85, 0.32),
        (0.8, 0.75),
    ]
    poly = " ".join(f"{x + px * s:.1f},{y + py * s:.1f}" for px, py in pts)
    cls = "queen pinned" if pinned else "queen"
    tips = "".join(
        f'<circle cx="{x + px * s:.1f}" cy="{y + py * s - s * 0.05:.1f}" r="{s * 0.05:.1f}"/>'
        for px, py in pts[1:6:2]
    )
    return (
        f'<g class="{cls}" data-row="{row}" data-col="{col}" fill="{fill}" stroke="#000" '
        f'stroke-width="{max(s / 40, 0.5):.1f}"><polygon points="{poly}"/>{tips}'
        f'<rect x="{x + 0.18 * s:.1f}" y="{y + 0.75 * s:.1f}" width="{0.64 * s:.1f}" '
        f'height="{0.1 * s:.1f}"/></g>'
    )


def board_svg(
    board: Sequence[int],
    *,
    pins: Iterable[int] = (),
    cell: int = 32,
    coords: bool = True,
    title: str | None = None,
) -> str:
    """One self-contained SVG board. ``pins`` are the rows whose queens were placed in advance.

    >>> svg = board_svg([1, 3, 0, 2], pins=[0])
    >>> svg.count('class="queen pinned"'), svg.count('class="queen"')
    (1, 3)
    """
    b = _check(board)
    n = len(b)
    pinned = set(pins)
    margin = cell // 2 if coords else 0
    side = n * cell + margin
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="board-svg" width="{side}" '
            f'height="{side}" viewBox="0 0 {side} {side}" role="img" '
            f'aria-label="{escape(title or _label(b), quote=True)}">'
        )
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    parts.append(squares_svg(n, cell, margin))
    for row, col in enumerate(b):
        parts.append(
            crown_svg(
                margin + col * cell,
                row * cell,
                cell,
                PINNED if row in pinned else QUEEN,
                row in pinned,
                row,
                col,
            )
        )
    if coords:
        parts.append(coords_svg(n, cell, margin))
    parts.append("</svg>")
    return "".join(parts)


def squares_svg(n: int, cell: int, margin: int) -> str:
    """The n x n squares, light and dark, ``margin`` from the left edge (SVG elements)."""
    light = f'<rect x="{margin}" y="0" width="{n * cell}" height="{n * cell}" fill="{LIGHT}"/>'
    return light + "".join(
        f'<rect x="{margin + col * cell}" y="{row * cell}" width="{cell}" height="{cell}" fill="{DARK}"/>'
        for row in range(n)
        for col in range(n)
        if (row + col) % 2
    )


def coords_svg(n: int, cell: int, margin: int) -> str:
    """Ranks down the left margin and files along the bottom (SVG elements)."""
    font = (
        f'font-family="sans-serif" font-size="{max(cell // 3, 6)}" fill="#333" text-anchor="middle"'
    )
    ranks = "".join(
        f'<text x="{margin / 2}" y="{row * cell + cell * 0.6:.1f}" {font}>{row + 1}</text>'
        for row in range(n)
    )
    return ranks + "".join(
        f'<text x="{margin + col * cell + cell / 2}" y="{n * cell + margin * 0.8:.1f}" {font}>{name}</text>'
        for col, name in enumerate(_files(n))
    )


def _label(board: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, board)) + "]"


class Board(tuple[int, ...]):
    """A solution that shows itself: as text in a terminal, as SVG in Jupyter.

    It is a ``tuple`` of columns, so it compares equal to the plain tuple.

    >>> b = Board((1, 3, 0, 2), pins={0})
    >>> b == (1, 3, 0, 2), str(b).splitlines()[0]
    (True, '. Q . .')
    """

    pins: frozenset[int]

    def __new__(cls, columns: Iterable[int], pins: Iterable[int] = ()) -> Board:
        board = super().__new__(cls, _check(tuple(columns)))
        board.pins = frozenset(pins)
        return board

    def __str__(self) -> str:
        return board_text(self)

    def __repr__(self) -> str:
        return f"Board({_label(self)})"

    def _repr_svg_(self) -> str:
        return board_svg(self, pins=self.pins)

    def _repr_html_(self) -> str:
        return f"<figure>{self._repr_svg_()}<figcaption>{_label(self)}</figcaption></figure>"


class Page(str):
    """A self-contained HTML page: a ``str``, which Jupyter shows in a frame of its own.

    The frame keeps the page's styles and scripts to itself.

    >>> page = html_page("A & B", "<p>hello</p>")
    >>> page.startswith("<!DOCTYPE html>"), "<title>A &amp; B</title>" in page, "srcdoc" in page._repr_html_()
    (True, True, True)
    >>> page
    <an HTML page of 139 characters>
    """

    height = 640

    def __repr__(self) -> str:
        return f"<an HTML page of {len(self):,} characters>"

    def _repr_html_(self) -> str:
        return (
            f'<iframe srcdoc="{escape(self, quote=True)}" '
            f'style="width:100%;height:{self.height}px;border:1px solid #ccc"></iframe>'
        )


def html_page(title: str, body: str, style: str = "") -> Page:
    """One page: ``title`` (escaped here), the inline ``style`` and the ``body`` (HTML, escaped by the caller)."""
    return Page("".join(page_parts(title, (body,), style)))


def page_parts(title: str, body: Iterable[str], style: str = "") -> Iterator[str]:
    """:func:`html_page` piece by piece, the ``body`` as it comes (to write a big page as it is made)."""
    yield (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{style}</style></head><body>"
    )
    yield from body
    yield "</body></html>\n"
