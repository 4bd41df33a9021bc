"""The contenders of the CSP suite: relqueens and three peers, each optional but relqueens.

A contender's models live in its own module (``models_*``), imported only by
the worker that runs it, so a missing peer costs nothing but a note. Each
module has ``MODELS`` (family -> ``model(problem)``, which encodes and returns
a thunk that solves) and, if some family cannot be stated, ``NO_MODEL``
(family -> why).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any, NamedTuple


class Timed(NamedTuple):
    """An answer with the CPU seconds the solver itself measured (SWI-Prolog's ``cputime``)."""

    answer: Any
    seconds: float


PROCESS_CPU = "CPU seconds of the worker process (time.process_time), building the model included"


@dataclass(frozen=True)
class Contender:
    """A solver: its models, what it needs installed (a module or a command), how to get that."""

    name: str
    module: str
    needs: str
    install: str
    clock: str = PROCESS_CPU
    distribution: str | None = None

    def missing(self) -> str | None:
        """Why this contender cannot run here (with the command that fixes it), or ``None``."""
        kind, what = self.needs.split(":", 1)
        found = shutil.which(what) if kind == "command" else importlib.util.find_spec(what)
        return None if found else f"not installed ({self.install})"

    def version(self) -> str:
        """The installed version, as the package metadata or the program reports it."""
        if self.distribution:
            try:
                return f"{self.distribution} {importlib.metadata.version(self.distribution)}"
            except importlib.metadata.PackageNotFoundError:
                return f"{self.distribution} (version unknown: not installed as a package)"
        command = self.needs.split(":", 1)[1]
        done = subprocess.run([command, "--version"], check=False, capture_output=True, text=True)
        return done.stdout.strip()

    def models(self):
        """The module of this contender's models (importing it imports the solver)."""
        return importlib.import_module(f"{__package__}.{self.module}")

    def unavailable(self, exc: Exception) -> str | None:
        """The API an encoding needed and did not find, if ``exc`` says so (relqueens only)."""
        return getattr(self.models(), "unavailable", lambda e: None)(exc)


CONTENDERS: dict[str, Contender] = {
    c.name: c
    for c in (
        Contender(
            "relqueens",
            "models_relqueens",
            "module:relqueens",
            "pip install -e .",
            distribution="relqueens",
        ),
        Contender(
            "python-constraint",
            "models_constraint",
            "module:constraint",
            "pip install python-constraint2",
            distribution="python-constraint2",
        ),
        Contender(
            "cp-sat",
            "models_cpsat",
            "module:ortools",
            "pip install ortools",
            PROCESS_CPU + "; one search worker",
            "ortools",
        ),
        Contender(
            "swi-prolog",
            "models_swipl",
            "command:swipl",
            "apt-get install -y swi-prolog-nox",
            "SWI-Prolog's statistics(cputime) around posting and labeling (not its start)",
        ),
    )
}
"""Every contender, in the report's column order."""
