"""Boards as text, as the seed's ``print-board`` draws them."""

from __future__ import annotations

from collections.abc import Sequence


def board_text(board: Sequence[int]) -> str:
    """One line per row, ``Q`` where the queen stands and ``.`` elsewhere.

    >>> print(board_text([1, 3, 0, 2]))
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """
    n = len(board)
    return "\n".join(" ".join("Q" if c == col else "." for c in range(n)) for col in board)
