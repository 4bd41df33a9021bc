"""The gallery and the search trees, opened in a real (headless) Chromium."""

import os
import re
import shutil
import struct
import subprocess
import zlib

import pytest

from relqueens.cli import main

BROWSER = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)
if BROWSER is None and os.environ.get("CI"):
    raise RuntimeError("CI must have Chromium: .ci/run installs Debian's chromium package")
pytestmark = pytest.mark.skipif(BROWSER is None, reason="Chromium is not installed here (.ci/run installs it)")

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium(tmp_path, *args):
    profile = tmp_path / "profile"
    result = subprocess.run(
        [BROWSER, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True, text=True, timeout=120, check=True,
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
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
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
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
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
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
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
    share = {colour: pixels.count(colour) / len(pixels) for colour in ((0x76, 0x96, 0x56), (0xEE, 0xEE, 0xD2))}
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
