"""The gallery, the search trees and the stepper, opened in a real (headless) Chromium."""

import os
import re
import runpy
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from traces import domains_after

from relqueens.cli import main

BROWSER = next(
    (b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None
)
if BROWSER is None and os.environ.get("CI"):
    raise RuntimeError("CI must have Chromium: .ci/run installs Debian's chromium package")
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="Chromium is not installed here (.ci/run installs it)"
)

SCREENSHOTS = runpy.run_path(
    str(Path(__file__).resolve().parent.parent / "scripts" / "screenshots.py")
)
FLAGS = SCREENSHOTS["FLAGS"]


def chromium(tmp_path, *args):
    profile = tmp_path / "profile"
    result = subprocess.run(
        [BROWSER, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return result.stdout


def render(tmp_path, name, *argv):
    page = tmp_path / name
    assert main(["render", *argv, "--html", str(page)]) == 0
    return page


def png_pixels(path):
    """Decode an 8-bit RGB/RGBA PNG (what Chromium writes) into a list of rows of pixels."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        chunk = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour in (2, 6)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i : i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return rows


def test_gallery_of_eight_queens_has_92_boards(tmp_path):
    page = render(tmp_path, "g8.html", "8")
    dom = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert len(re.findall(r'<figure class="board"', dom)) == 92
    assert len(re.findall(r'class="queen"', dom)) == 92 * 8
    assert "92 solutions" in dom


def test_pinned_gallery_shows_four_with_the_pin_marked(tmp_path):
    page = render(tmp_path, "a1.html", "8", "--pin", "a1")
    dom = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert len(re.findall(r'<figure class="board"', dom)) == 4
    assert len(re.findall(r'class="queen pinned"', dom)) == 4
    assert "pins: a1" in dom


def test_screenshot_is_a_chessboard_not_a_blank(tmp_path):
    page = render(tmp_path, "g8.html", "8")
    shot = tmp_path / "g8.png"
    chromium(tmp_path, "--window-size=900,700", f"--screenshot={shot}", page.as_uri())
    pixels = [p for row in png_pixels(shot) for p in row]
    share = {
        colour: pixels.count(colour) / len(pixels)
        for colour in ((0x76, 0x96, 0x56), (0xEE, 0xEE, 0xD2))
    }
    assert all(s > 0.05 for s in share.values()), share
    assert len(set(pixels)) > 20


def test_hostile_title_is_escaped(tmp_path):
    title = '<script>document.title="owned"</script><img src=x onerror="alert(1)">'
    page = render(tmp_path, "t.html", "4", "--title", title)
    dom = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert "<script>" not in dom and "<img" not in dom
    assert "&lt;script&gt;" in dom and "&lt;img src=x" in dom


def test_search_tree_page_renders(tmp_path):
    page = tmp_path / "tree.html"
    assert main(["tree", "6", "--html", str(page)]) == 0
    dom = chromium(tmp_path, "--dump-dom", page.as_uri())
    assert dom.count('class="tree-svg"') == 2
    counts = re.findall(r'data-nodes="(\d+)" data-failures="(\d+)" data-solutions="(\d+)"', dom)
    (fd_nodes, _, fd_sols), (ml_nodes, _, ml_sols) = counts
    assert fd_sols == ml_sols == "4"
    assert int(fd_nodes) < int(ml_nodes)  # propagation prunes what backtracking explores
    assert dom.count('class="node solution"') == 8


# -- the stepper: keys pressed in the page, the DOM checked against the trace ----------------------

ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def stepped(tmp_path, page, keys, budget=5000):
    """Open a stepper page, press ``keys`` (the page's test hook), and read back what it shows."""
    dom = chromium(
        tmp_path, f"--virtual-time-budget={budget}", "--dump-dom", f"{page.as_uri()}#press={keys}"
    )
    squares = {}
    for tag in re.findall(r'<rect class="sq[^>]*>', dom):
        a = dict(ATTR.findall(tag))
        squares[int(a["data-r"]), int(a["data-c"])] = (a.get("data-state"), a.get("data-why"))
    queens = {}
    for tag in re.findall(r'<g class="queen[^>]*>', dom):
        a = dict(ATTR.findall(tag))
        if "data-state" in a:
            queens[int(a["data-row"])] = (int(a["data-col"]), a["data-state"])
    domains = {
        int(v): {int(x) for x in values.split(",") if x.strip()}
        for v, values in re.findall(r'<li data-var="(\d+)"[^>]*>r\d+: \{([^}]*)\}', dom)
    }
    counters = dict(re.findall(r'<span id="([\w-]+)">(\d*)</span>', dom))
    message = re.search(r'<p id="message"[^>]*>([^<]*)</p>', dom).group(1)
    return {
        "squares": squares,
        "queens": queens,
        "domains": domains,
        "counters": counters,
        "message": message,
        "dom": dom,
    }


def expected(trace, rows, phase, node_id):
    """Each row's domain at a step, rebuilt from the trace in Python: as shown, and before a dead end emptied one."""
    from relqueens.stepper import CHOOSE

    node = trace.nodes[node_id]
    if phase == CHOOSE:
        doms = domains_after(trace, trace.nodes[node.parent])
        doms[node.var] = {node.value}
    else:
        doms = domains_after(trace, node)
    before = {r: doms[v] for r, v in enumerate(rows)}
    shown = {
        r: set() if v is node.emptied and phase != CHOOSE else d
        for r, (v, d) in enumerate(zip(rows, before.values()))
    }
    return shown, before


def check_board(shown, domains, before, pins=(), symmetry=False):
    """The board matches the domains; every square shaded out has a reason: a queen attacking it, a pin, symmetry.

    A column also rules out the rest of a row it forces: the row is the only one left for some column.
    """
    assert shown["domains"] == domains
    for r, d in domains.items():
        for c in range(len(domains)):
            state = shown["squares"][r, c][0]
            assert (state in ("free", "queen")) == (c in d)
            assert (state == "queen") == (d == {c}) == (shown["queens"].get(r, (None,))[0] == c)
    fixed = {r: min(d) for r, d in before.items() if len(d) == 1}
    for (r, c), (state, why) in shown["squares"].items():
        if state == "out":
            others = [(qr, qc) for qr, qc in fixed.items() if qr != r]
            attackers = {
                "column": any(qc == c for qr, qc in others) or len(before[r]) == 1,
                "diagonal": any(qc - c == qr - r for qr, qc in others),
                "anti-diagonal": any(qc - c == r - qr for qr, qc in others),
                "pin": r in pins,
                "symmetry": symmetry,
            }
            assert attackers[why], ((r, c), why, fixed)


def test_stepper_keys_step_through_the_trace(tmp_path):
    from relqueens.stepper import CHOOSE, steps
    from relqueens.treeview import queens_trace

    page = tmp_path / "s8.html"
    assert main(["step", "8", "--html", str(page)]) == 0
    trace, names = queens_trace(8)
    order, rows = steps(trace), list(names)
    ninth_choice = [s for s, (phase, _) in enumerate(order) if phase == CHOOSE][8]
    for keys, k in (
        ("ArrowRight*7", 7),
        ("ArrowRight*40,ArrowLeft*3", 37),
        ("ArrowDown*9,ArrowRight", ninth_choice + 1),
    ):
        shown = stepped(tmp_path, page, keys)
        assert shown["counters"]["step"] == str(k)
        check_board(shown, *expected(trace, rows, *order[k]))
        assert shown["counters"]["choices"] == str(
            sum(phase == CHOOSE for phase, _ in order[: k + 1])
        )


def test_stepper_next_solution_and_the_end(tmp_path):
    from relqueens import queens

    page = tmp_path / "s8.html"
    assert main(["step", "8", "--html", str(page)]) == 0
    shown = stepped(tmp_path, page, "s*5")
    assert shown["counters"]["solutions"] == "5" and shown["counters"]["ml-solutions"] == "5"
    assert tuple(shown["queens"][r][0] for r in range(8)) == queens(8)[4]
    assert "Solution 5" in shown["message"]
    end = stepped(tmp_path, page, "End")
    assert end["counters"]["solutions"] == end["counters"]["solutions-total"] == "92"
    assert end["counters"]["choices"] == "636" and end["counters"]["dead"] == "306"
    assert (
        end["counters"]["ml-choices-total"] == "2056" and end["counters"]["ml-dead-total"] == "644"
    )
    assert "End of the replay: 92 solutions" in end["message"]


def test_stepper_plays_to_the_end(tmp_path):
    page = tmp_path / "s6.html"
    assert main(["step", "6", "--html", str(page)]) == 0
    shown = stepped(tmp_path, page, "+*3,Space", budget=30000)
    assert shown["counters"]["step"] == shown["counters"]["step-total"]
    assert shown["counters"]["solutions"] == "4" and re.search(
        r'<button id="play"[^>]*>play<', shown["dom"]
    )


def test_stepper_dead_ends_pins_and_symmetry(tmp_path):
    from relqueens.stepper import PROPAGATE, steps
    from relqueens.treeview import queens_trace

    page = tmp_path / "a1.html"
    assert main(["step", "8", "--pin", "a1", "--symmetry", "--html", str(page)]) == 0
    trace, names = queens_trace(8, pins=["a1"], symmetry=True)
    order, rows = steps(trace), list(names)
    start = stepped(tmp_path, page, "Home")
    assert start["queens"][0] == (0, "pinned")
    assert {why for (r, _), (_, why) in start["squares"].items() if r == 0 and why} == {"pin"}
    check_board(start, *expected(trace, rows, *order[0]), pins={0}, symmetry=True)
    dead = next(
        s
        for s, (phase, k) in enumerate(order)
        if phase == PROPAGATE and trace.nodes[k].emptied is not None
    )
    shown = stepped(tmp_path, page, f"ArrowRight*{dead}")
    check_board(shown, *expected(trace, rows, *order[dead]), pins={0}, symmetry=True)
    assert (
        "Dead end" in shown["message"]
        and 'class="dead"' in shown["dom"]
        and 'data-state="dead"' in shown["dom"]
    )


def test_stepper_hostile_title_is_escaped(tmp_path):
    title = '</script><script>document.title="owned"</script><img src=x onerror="alert(1)">'
    page = tmp_path / "t.html"
    assert main(["step", "5", "--title", title, "--html", str(page)]) == 0
    shown = stepped(tmp_path, page, "ArrowRight")
    assert "<img" not in shown["dom"] and "owned</title>" not in shown["dom"]
    assert "&lt;/script&gt;&lt;script&gt;" in shown["dom"]
    assert shown["counters"]["step"] == "1"  # the page's own script still runs


def test_sudoku_stepper_cells_shrink(tmp_path):
    page = tmp_path / "sudoku.html"
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "sudoku.py"), "--step", str(page)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "wrote" in done.stdout
    shown = stepped(tmp_path, page, "ArrowRight*2")
    cells = re.findall(
        r'<div class="cell[^"]*" data-var="(\d+)"[^>]*data-state="(\w+)"', shown["dom"]
    )
    assert len(cells) == 81 and {s for _, s in cells} <= {"fixed", "open", "dead"}
    fresh = [dict(ATTR.findall(tag)) for tag in re.findall(r"<i [^>]*fresh[^>]*>", shown["dom"])]
    assert fresh and {a["title"] for a in fresh} <= {"row", "column", "box"}
    end = stepped(tmp_path, page, "End")
    assert end["counters"]["solutions"] == "1"
    assert 'data-state="open"' not in end["dom"]


def test_screenshot_script_draws_the_gallery_and_the_stepper(tmp_path):
    gallery, stepper = SCREENSHOTS["main"](tmp_path / "shots")
    for png in (gallery, stepper):
        pixels = [p for row in png_pixels(png) for p in row]
        assert len(set(pixels)) > 20 and pixels.count((0xEE, 0xEE, 0xD2)) / len(pixels) > 0.01, (
            png.name
        )
    assert (gallery.name, stepper.name) == ("gallery.png", "stepper.png")
