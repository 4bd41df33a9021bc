"""relqueens — relational logic programming with finite domains, on kanren.

One import serves: kanren's basics (``eq``, ``conde``, ``membero``, ...),
logic variables that do arithmetic, the FD layer (``fd``) and ``run``.

>>> from relqueens import run_all, vars, fd
>>> x, y = vars(2)
>>> run_all((x, y), fd.in_(x, y, fd.interval(0, 2)), x < y)
((0, 1), (0, 2), (1, 2))
"""

from . import fd
from .check import check
from .count import CheckpointError, CountError, CountResult, count
from .fd import DomainError, SearchLimit, SearchTrace, domain, interval, label
from .fd.answers import Residual, run, run_all
from .fd.terms import LVar, var, vars
from .fd.warmup import warm_up_at_import
from .logic import (
    Relation,
    Zzz,
    appendo,
    canonical,
    conde,
    conj,
    conso,
    disj,
    eq,
    fact,
    facts,
    fail,
    fresh,
    heado,
    itero,
    lall,
    lany,
    membero,
    neq,
    nullo,
    permuteo,
    relation,
    rembero,
    succeed,
    tabled,
    tailo,
)
from .queens import complete, iter_queens, possible_columns, queens, queenso, symmetry_breako
from .squares import PinError
from .stepper import queens_stepper_html, stepper_html

warm_up_at_import()

__all__ = [
    "CheckpointError",
    "CountError",
    "CountResult",
    "DomainError",
    "LVar",
    "PinError",
    "Relation",
    "Residual",
    "SearchLimit",
    "SearchTrace",
    "Zzz",
    "appendo",
    "canonical",
    "check",
    "complete",
    "conde",
    "conj",
    "conso",
    "count",
    "disj",
    "domain",
    "eq",
    "fact",
    "facts",
    "fail",
    "fd",
    "fresh",
    "heado",
    "interval",
    "iter_queens",
    "itero",
    "label",
    "lall",
    "lany",
    "membero",
    "neq",
    "nullo",
    "permuteo",
    "possible_columns",
    "queens",
    "queens_stepper_html",
    "queenso",
    "relation",
    "rembero",
    "run",
    "run_all",
    "stepper_html",
    "succeed",
    "symmetry_breako",
    "tabled",
    "tailo",
    "var",
    "vars",
]
