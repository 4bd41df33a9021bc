"""The ML seed's eight queens: ``canPlaceQueen``, ``queenTreeGen`` and the lazy ``genAll``.

Run it: ``python examples/eight_queens_ml.py``

The ML seed grows boards at the head and counts columns from 1; here boards
grow at the end (row order) and columns count from 0, as in the core.logic
seed. The relational counterpart of the lazy stream is ``iter_queens``.
"""

from itertools import islice

from relqueens import iter_queens
from relqueens.reference import Branch, Solution, gen_all, queen_tree


def can_place_queen(col: int, board: tuple) -> bool:
    """``canPlaceQueen``: the next row's queen at ``col`` is attacked by none on ``board``."""
    row = len(board)
    return all(c != col and abs(c - col) != row - r for r, c in enumerate(board))


def tree_size(tree) -> tuple[int, int]:
    """Nodes and solutions in a search tree (walked without recursion)."""
    nodes = solutions = 0
    stack = [tree]
    while stack:
        node = stack.pop()
        nodes += 1
        if isinstance(node, Solution):
            solutions += 1
        elif isinstance(node, Branch):
            stack.extend(node.children)
    return nodes, solutions


if __name__ == "__main__":
    assert can_place_queen(2, (0,)) and not can_place_queen(1, (0,))
    tree = queen_tree(8)  # queenTreeGen []
    print("first children of the root:", [child.board for child in tree.children[:3]], "...")
    print("tree (nodes, solutions):", tree_size(tree))
    stream = gen_all(tree)  # genAll (queenTreeGen [])
    print("first three of the lazy stream:", list(islice(stream, 3)))
    print("the rest:", sum(1 for _ in stream), "more, 92 in all")
    print("relationally, lazily:", list(islice(iter_queens(8), 3)))
