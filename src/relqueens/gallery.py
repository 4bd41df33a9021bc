"""Galleries: every solution as a board, on one self-contained HTML page or as SVG files.

The page needs no network: boards are inline SVG, the style is inline CSS, and
every piece of text that came from the user (the title, the pins) is escaped.

>>> page = gallery_html([(1, 3, 0, 2), (2, 0, 3, 1)], n=4)
>>> page.count('<figure class="board"')
2
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterable, Iterator, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from .render import Page, _label, board_svg, page_parts
from .squares import square

LARGE = 500
"""Above this many boards a gallery needs ``--limit`` or ``--force``."""

MAX_SQUARES = 2_000_000
"""A gallery (or SVG folder) draws at most this many squares, n² per board: about 60 MB of SVG."""

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


def gallery_html(boards: Sequence[Sequence[int]], **options: Any) -> Page:
    """One HTML page with every board, numbered and labelled with its columns.

    Takes the options of :func:`gallery_parts`: ``n``, ``pins``,
    ``symmetry``, ``title``, ``truncated`` (the boards are some of the solutions).

    >>> "n = 4 · 1 shown" in gallery_html([(1, 3, 0, 2)], n=4, truncated=True)
    True
    """
    return Page("".join(gallery_parts(boards, **options)))


def gallery_parts(
    boards: Sequence[Sequence[int]],
    *,
    n: int,
    pins: Mapping[int, int] | None = None,
    symmetry: bool = False,
    title: str | None = None,
    truncated: bool = False,
) -> Iterator[str]:
    """The page of :func:`gallery_html` piece by piece, one board at a time (to write it as it is made).

    >>> parts = list(gallery_parts([(1, 3, 0, 2)], n=4))
    >>> len(parts), parts[2].startswith('<figure class="board"')
    (5, True)
    """
    pins = dict(pins or {})
    title = title or f"{n}-queens"
    shown = (
        f"{len(boards)} shown"
        if truncated
        else f"{len(boards)} solution{'' if len(boards) == 1 else 's'}"
    )
    summary = (
        f"n = {n} · {shown} · pins: {describe_pins(pins)} · "
        f"symmetry breaking: {'on' if symmetry else 'off'}"
    )
    cell = 30 if n <= 8 else max(8, 240 // max(n, 1))

    def body() -> Iterator[str]:
        yield f'<h1>{escape(title)}</h1><p class="summary">{escape(summary)}</p><div class="gallery">'
        for k, board in enumerate(boards, 1):
            label = _label(board)
            yield (
                f'<figure class="board" id="board-{k}" data-columns="{" ".join(map(str, board))}">'
                f"{board_svg(board, pins=pins.keys(), cell=cell, title=f'#{k} {label}')}"
                f"<figcaption>#{k} {label}</figcaption></figure>"
            )
        yield "</div>"

    return page_parts(title, body(), " ".join(_STYLE.split()))


def write_atomically(path: str | Path, parts: Iterable[str]) -> None:
    """Write text to ``path`` whole or not at all: into a temporary file beside it, then renamed over it.

    A failure midway (a full disk, a file size limit, an interrupt) leaves
    the old file as it was, and no temporary file behind. A symbolic link
    is followed; what is not a regular file (``/dev/stdout``, a named pipe)
    is written in place.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_atomically(f"{d}/a.txt", ["one ", "two"])
    ...     Path(f"{d}/a.txt").read_text(), os.listdir(d)
    ('one two', ['a.txt'])
    """
    path = Path(path)
    if path.exists() and not path.is_file():
        with open(path, "w", encoding="utf-8") as stream:
            stream.writelines(parts)
        return
    real = Path(os.path.realpath(path))
    import secrets  # loads hashlib: only when a page is written, not at import

    temporary = real.with_name(f".{real.name}.{secrets.token_hex(4)}.tmp")
    try:
        with open(temporary, "x", encoding="utf-8") as f:
            f.writelines(parts)
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(OSError):  # keep the old file's permissions
            shutil.copymode(real, temporary)
        os.replace(temporary, real)
    except BaseException as e:
        with contextlib.suppress(OSError):
            temporary.unlink()
        if isinstance(e, OSError):  # name the file asked for, not the temporary one
            raise OSError(e.errno, e.strerror, str(path)) from None
        raise


def write_svgs(
    boards: Sequence[Sequence[int]],
    directory: str | Path,
    *,
    n: int,
    pins: Mapping[int, int] | None = None,
) -> list[Path]:
    """Write one SVG file per board into ``directory`` (created if needed), each atomically; return the paths."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    width = len(str(len(boards)))
    paths = []
    for k, board in enumerate(boards, 1):
        path = out / f"queens-{n}-{k:0{width}d}.svg"
        write_atomically(
            path, [board_svg(board, pins=(pins or {}).keys(), title=f"#{k} {_label(board)}"), "\n"]
        )
        paths.append(path)
    return paths
