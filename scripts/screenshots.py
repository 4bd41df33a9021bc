"""The README's screenshots, drawn by headless Chromium: the gallery and the stepper.

Run from the repository: ``python scripts/screenshots.py [DIR]`` writes
``gallery.png`` and ``stepper.png`` into DIR (default: ``docs/``). Needs
Chromium (Debian's ``chromium`` package).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from relqueens import queens, queens_stepper_html
from relqueens.gallery import gallery_html

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]
SHOTS = {  # name: (page, keys pressed on it, window size)
    "gallery.png": (lambda: gallery_html(queens(8), n=8), "", (1100, 640)),
    "stepper.png": (lambda: queens_stepper_html(8), "ArrowRight*6", (1100, 620)),
}


def browser() -> str:
    """The Chromium on this machine (``RuntimeError`` if there is none)."""
    found = next(
        (b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None
    )
    if found is None:
        raise RuntimeError("no Chromium here: install Debian's chromium package")
    return found


def shoot(page: Path, png: Path, size: tuple[int, int], keys: str = "") -> None:
    """Open ``page`` (pressing ``keys`` with the stepper's ``#press=`` hook) and save a screenshot."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                browser(),
                *FLAGS,
                f"--user-data-dir={profile}",
                f"--window-size={size[0]},{size[1]}",
                "--virtual-time-budget=3000",
                f"--screenshot={png}",
                page.as_uri() + (f"#press={keys}" if keys else ""),
            ],
            capture_output=True,
            timeout=120,
            check=True,
        )


def main(out: Path) -> list[Path]:
    """Write every screenshot into ``out``; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    made = []
    with tempfile.TemporaryDirectory() as work:
        for name, (page, keys, size) in SHOTS.items():
            html = Path(work) / f"{Path(name).stem}.html"
            html.write_text(page(), encoding="utf-8")
            shoot(html, out / name, size, keys)
            made.append(out / name)
    return made


if __name__ == "__main__":
    for path in main(
        Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "docs"
    ):
        print(f"wrote {path}")
