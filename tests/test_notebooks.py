"""The notebooks in docs/notebooks run, cell by cell, in a fresh kernel; they are committed without outputs."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "docs" / "notebooks").glob("*.ipynb"))
SHOWS = {  # what each notebook must show besides text: the rich reprs at work
    "eight-queens-relationally.ipynb": ["image/svg+xml", "<table>"],
    "your-own-puzzle.ipynb": ["<table>", "constraints left"],
    "watching-the-search.ipynb": ["<iframe srcdoc=", "SearchTrace"],
}


def test_there_are_three():
    assert [p.name for p in NOTEBOOKS] == sorted(SHOWS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_from_a_clean_kernel(path):
    nb = nbformat.read(path, as_version=4)
    assert all(
        not c.get("outputs") and c.get("execution_count") is None
        for c in nb.cells
        if c.cell_type == "code"
    )
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    outputs = [out for c in nb.cells if c.cell_type == "code" for out in c.outputs]
    shown = " ".join(
        f"{kind} {value}" for out in outputs for kind, value in out.get("data", {}).items()
    )
    for needle in SHOWS[path.name]:
        assert needle in shown, (path.name, needle)
