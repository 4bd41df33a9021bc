"""Pins: which queens are already placed, as chess squares or ``{row: column}``.

Squares name the file (column) by letter and the rank (row) by number:
``a1`` is row 0, column 0; ``c5`` is row 4, column 2. For boards wider than
26 files, or by preference, a pin may also be written ``ROW:COL`` (0-based).

>>> pins_of(["a1", "c5"], 8)
{0: 0, 4: 2}
>>> square(4, 2)
'c5'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TypeAlias

_SQUARE = re.compile(r"^([a-z])([1-9][0-9]*)$")
_NUMERIC = re.compile(r"^(-?[0-9]+):(-?[0-9]+)$")

Pins: TypeAlias = "Mapping[int, int] | Iterable[str | tuple[int, int]] | str | None"
"""Queens placed in advance: ``{row: column}``, or squares (``"c5"``, ``"ROW:COL"``) or pairs."""


class PinError(ValueError):
    """A malformed pin: a bad square name, a square off the board, two queens in a row."""


def square(row: int, col: int) -> str:
    """The chess name of a square (files ``a``.. for columns, ranks ``1``.. for rows).

    >>> square(0, 0)
    'a1'
    """
    if not 0 <= col < 26:
        raise PinError(f"column {col} has no file letter (files run a..z)")
    return f"{chr(ord('a') + col)}{row + 1}"


def _check_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PinError(f"{what} must be an integer, got {value!r}")
    return value


def parse_pin(text: str, n: int) -> tuple[int, int]:
    """``(row, col)`` for a square name (``"c5"``) or ``"ROW:COL"``, checked against an n x n board.

    >>> parse_pin("h8", 8), parse_pin("2:5", 8)
    ((7, 7), (2, 5))
    """
    if not isinstance(text, str):
        raise PinError(f"a pin is a square such as 'a1' or 'ROW:COL', got {text!r}")
    t = text.strip().lower()
    m = _SQUARE.match(t)
    if m:
        row, col = int(m.group(2)) - 1, ord(m.group(1)) - ord("a")
    else:
        m = _NUMERIC.match(t)
        if not m:
            raise PinError(f"{text!r} is not a square: write a file letter and a rank, as in 'a1'")
        row, col = int(m.group(1)), int(m.group(2))
    _on_board(row, col, n, text)
    return row, col


def _on_board(row: int, col: int, n: int, label: object) -> None:
    if not (0 <= row < n and 0 <= col < n):
        raise PinError(f"{label!r} is off the {n}x{n} board (row {row}, column {col})")


def pins_of(pins: Pins, n: int) -> dict[int, int]:
    """Normalize pins to ``{row: column}``, refusing malformed ones.

    ``pins`` is ``None``, a mapping ``{row: col}``, one square, or an iterable
    of squares / ``"ROW:COL"`` strings / ``(row, col)`` pairs. Two different
    queens in one row are refused; a square given twice is one pin.

    >>> pins_of({3: 1}, 8)
    {3: 1}
    >>> pins_of(["a1", "b1"], 8)
    Traceback (most recent call last):
    ...
    relqueens.squares.PinError: two queens in row 0 (rank 1): columns 0 and 1
    """
    if pins is None:
        return {}
    if isinstance(pins, (bytes, bytearray)):
        raise PinError(
            f"pins must be squares as text, such as 'a1', or a {{row: column}} mapping, got {pins!r}"
        )
    if isinstance(pins, str):
        pins = [pins]
    pairs: list[tuple[int, int]] = []
    if isinstance(pins, Mapping):
        for row, col in pins.items():
            row, col = _check_int(row, "a pinned row"), _check_int(col, "a pinned column")
            _on_board(row, col, n, f"{row}:{col}")
            pairs.append((row, col))
    else:
        try:
            items = list(pins)
        except TypeError:
            raise PinError(
                f"pins must be squares or a {{row: column}} mapping, got {pins!r}"
            ) from None
        for item in items:
            if isinstance(item, tuple) and len(item) == 2:
                row, col = (_check_int(v, "a pinned row or column") for v in item)
                _on_board(row, col, n, item)
                pairs.append((row, col))
            else:
                pairs.append(parse_pin(item, n))
    out: dict[int, int] = {}
    for row, col in pairs:
        if out.get(row, col) != col:
            raise PinError(
                f"two queens in row {row} (rank {row + 1}): columns {out[row]} and {col}"
            )
        out[row] = col
    return out
