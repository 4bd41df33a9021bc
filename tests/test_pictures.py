"""Boards, galleries, traces and trees, without a browser."""

import pytest

from relqueens import SearchTrace, fd, queens, queenso, run_all, vars
from relqueens.cli import main
from relqueens.fd.trace import FAILED, SOLUTION
from relqueens.gallery import gallery_html, write_svgs
from relqueens.reference import queen_tree
from relqueens.render import DARK, LIGHT, Board, board_svg, board_text
from relqueens.treeview import count, ml_shape, search_trees_html, trace_shape


def test_text_boards():
    assert board_text([1, 3, 0, 2]).splitlines() == [". Q . .", ". . . Q", "Q . . .", ". . Q ."]
    fancy = board_text([1, 3, 0, 2], unicode=True, coords=True).splitlines()
    assert fancy[0] == "1 · ♕ · ·" and fancy[-1] == "  a b c d"
    with pytest.raises(ValueError, match="row 1"):
        board_text([0, 5])


def test_svg_board_colours_coordinates_and_pins():
    svg = board_svg([1, 3, 0, 2], pins=[2])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert (
        svg.count(f'fill="{LIGHT}"') == 1 and svg.count(f'fill="{DARK}"') == 8
    )  # dark squares on light
    assert svg.count('class="queen pinned"') == 1 and 'data-row="2" data-col="0"' in svg
    assert ">a<" in svg and ">d<" in svg and ">4<" in svg
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")  # self-contained


def test_board_object_shows_itself():
    b = Board((1, 3, 0, 2), pins={0})
    assert b == (1, 3, 0, 2) and hash(b) == hash((1, 3, 0, 2))
    assert str(b) == board_text(b)
    assert repr(b) == "Board([1, 3, 0, 2])"
    assert b._repr_svg_().count("queen pinned") == 1
    assert "<figcaption>[1, 3, 0, 2]</figcaption>" in b._repr_html_()


def test_gallery_page():
    page = gallery_html(queens(6), n=6, pins={0: 1}, symmetry=False, title="Six & <six>")
    assert page.count('<figure class="board"') == 4
    assert "<title>Six &amp; &lt;six&gt;</title>" in page
    assert "n = 6 · 4 solutions · pins: b1 · symmetry breaking: off" in page
    assert 'id="board-4"' in page and "#1 [1, 3, 5, 0, 2, 4]" in page
    assert "<script" not in page and "http" not in page.replace("http://www.w3.org/2000/svg", "")


def test_write_svgs(tmp_path):
    paths = write_svgs(queens(6), tmp_path / "out", n=6)
    assert [p.name for p in paths] == [f"queens-6-{k}.svg" for k in range(1, 5)]
    assert all(p.read_text().startswith("<svg") for p in paths)


def test_trace_records_choices_narrowing_and_outcomes():
    cols = vars(4)
    t = SearchTrace()
    sols = run_all(cols, queenso(cols, 4), fd.label(cols, trace=t))
    assert len(sols) == 2
    assert t.counts() == {"nodes": 8, "failures": 4, "solutions": 2}
    (root,) = t.roots()
    assert all(d == fd.interval(0, 3) for _, d in root.narrowed.values())
    first = t.nodes[root.children[0]]
    assert first.var is cols[0] and first.value == 0
    before, after = first.narrowed[cols[1]]
    assert before == fd.interval(0, 3) and after == fd.domain(2, 3)
    assert {t.nodes[c].status for c in root.children} <= {FAILED, SOLUTION, "branch"}
    t2 = SearchTrace()
    assert run_all(cols, queenso(cols, 4), trace=t2) == sols
    assert t2.counts() == t.counts()


def test_trees_propagation_beats_backtracking():
    for n in (4, 5, 6):
        t = SearchTrace()
        queens(n, trace=t)
        fd_counts = count(trace_shape(t, {}))
        ml_counts = count(ml_shape(queen_tree(n)))
        assert fd_counts["solutions"] == ml_counts["solutions"]
        assert fd_counts["nodes"] < ml_counts["nodes"]
    page = search_trees_html(5)
    assert page.count('class="tree-svg"') == 2
    with pytest.raises(ValueError, match="n <= 8"):
        search_trees_html(9)


def test_render_command(tmp_path, capsys):
    assert (
        main(["render", "6", "--html", str(tmp_path / "g.html"), "--svg", str(tmp_path / "s")]) == 0
    )
    assert (tmp_path / "g.html").read_text().count('<figure class="board"') == 4
    assert len(list((tmp_path / "s").iterdir())) == 4
    assert main(["render", "12", "--html", str(tmp_path / "big.html")]) == 2
    assert "--limit" in capsys.readouterr().err
    assert not (tmp_path / "big.html").exists()
    assert main(["render", "12", "--html", str(tmp_path / "some.html"), "--limit", "7"]) == 0
    assert "7 shown" in (tmp_path / "some.html").read_text()
    assert main(["render", "6"]) == 2
    assert main(["render", "6", "--html", str(tmp_path / "no" / "such" / "dir.html")]) == 2
    assert main(["tree", "5", "--html", str(tmp_path / "t.html")]) == 0
    assert main(["tree", "9", "--html", str(tmp_path / "t9.html")]) == 2


PICTURES = [
    ("queens-8.html", ["render", "8"]),
    ("queens-8-a1.html", ["render", "8", "--pin", "a1"]),
    ("queens-8-fundamental.html", ["render", "8", "--symmetry"]),
    ("search-trees-6.html", ["tree", "6"]),
    ("stepper-8.html", ["step", "8"]),
]


@pytest.mark.parametrize("name, argv", PICTURES)
def test_pictures_in_docs_are_up_to_date(tmp_path, name, argv):
    """docs/pictures/ holds the command's output; regenerate with the same command if this fails."""
    from pathlib import Path

    fresh = tmp_path / name
    assert main([*argv, "--html", str(fresh)]) == 0
    committed = Path(__file__).resolve().parent.parent / "docs" / "pictures" / name
    assert committed.read_text() == fresh.read_text(), (
        f"relqueens {' '.join(argv)} --html docs/pictures/{name}"
    )
