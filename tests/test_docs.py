"""Every ``python`` code block in docs/ and the README runs, in order, per file."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_code_blocks_run(page, capsys):
    blocks = BLOCK.findall(page.read_text())
    namespace: dict = {"__name__": f"docs_{page.stem}"}
    for k, code in enumerate(blocks):
        try:
            exec(compile(code, f"{page.name}[block {k}]", "exec"), namespace)
        except Exception as err:  # pragma: no cover - the failure message is the point
            raise AssertionError(f"{page.name}, code block {k} failed: {err!r}\n{code}") from err
