"""Galleries: every solution as a board, on one self-contained HTML page or as SVG files.

The page needs no network: boards are inline SVG, the style is inline CSS, and
every piece of text that came from the user (the title, the pins) is escaped.

>>> page = gallery_html([(1, 3, 0, 2), (2, 0, 3, 1)], n=4)
>>> page.count('<figure class="board"')
2
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path

from .render import Page, board_svg, html_page
from .squares import square

LARGE = 500
"""Above this many boards a gallery needs ``--limit`` or ``--force``."""

_STYLE = """
body { font-family: sans-serif; margin: 16px; color: #222; }
h1 { font-size: 1.4em; margin: 0 0 4px; }
p.summary { margin: 0 0 12px; color: #444; }
.gallery { display: flex; flex-wrap: wrap; gap: 8px; padding: 8px; }
figure.board { margin: 0; padding: 6px; border: 2px solid #333; background: #fff; }
figcaption { font-size: 12px; text-align: center; margin-top: 4px; font-family: monospace; }
"""


def describe_pins(pins: Mapping[int, int]) -> str:
    """Pins as chess squares (or ``ROW:COL`` past file z), for captions.

    >>> describe_pins({0: 0, 4: 2})
    'a1, c5'
    """
    if not pins:
        return "none"
    return ", ".join(square(r, c) if c < 26 else f"{r}:{c}" for r, c in sorted(pins.items()))


def gallery_html(
    boards: Sequence[Sequence[int]],
    *,
    n: int,
    pins: Mapping[int, int] | None = None,
    symmetry: bool = False,
    title: str | None = None,
    truncated: bool = False,
) -> Page:
    """One HTML page with every board, numbered and labelled with its columns."""
    pins = dict(pins or {})
    title = title or f"{n}-queens"
    count = f"{len(boards)} shown" if truncated else f"{len(boards)} solution{'' if len(boards) == 1 else 's'}"
    summary = (
        f"n = {n} · {count} · pins: {describe_pins(pins)} · "
        f"symmetry breaking: {'on' if symmetry else 'off'}"
    )
    cell = 30 if n <= 8 else max(8, 240 // max(n, 1))
    figures = []
    for k, board in enumerate(boards, 1):
        label = "[" + ", ".join(map(str, board)) + "]"
        figures.append(
            f'<figure class="board" id="board-{k}" data-columns="{" ".join(map(str, board))}">'
            f"{board_svg(board, pins=pins.keys(), cell=cell, title=f'#{k} {label}')}"
            f"<figcaption>#{k} {label}</figcaption></figure>"
        )
    body = (
        f"<h1>{escape(title)}</h1><p class=\"summary\">{escape(summary)}</p>"
        f"<div class=\"gallery\">{''.join(figures)}</div>"
    )
    return html_page(title, body, " ".join(_STYLE.split()))


def write_svgs(boards: Sequence[Sequence[int]], directory: str | Path, *, n: int, pins: Mapping[int, int] | None = None) -> list[Path]:
    """Write one SVG file per board into ``directory`` (created if needed); return the paths."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    width = len(str(len(boards)))
    paths = []
    for k, board in enumerate(boards, 1):
        path = out / f"queens-{n}-{k:0{width}d}.svg"
        label = "[" + ", ".join(map(str, board)) + "]"
        path.write_text(board_svg(board, pins=(pins or {}).keys(), title=f"#{k} {label}") + "\n")
        paths.append(path)
    return paths
