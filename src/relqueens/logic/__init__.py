"""relqueens.logic — the relational core: states, goals, the fair search, ``run``.

microKanren-small: terms are kanren's (``unification`` variables, lists,
tuples, ``cons`` pairs), goals are functions from a state to states, and the
search interleaves disjunctions fairly without using Python's stack. Fact
tables (``Relation``, ``facts``) and tabled relations (``tabled``) live here
too.
"""

from unification import var, vars

from .disequality import DisequalityStore, neq
from .facts import Relation, fact, facts
from .goals import Zzz, conde, conj, disj, eq, fail, fresh, lall, lany, relation, succeed
from .limits import SearchLimit
from .lists import appendo, conso, heado, itero, membero, nullo, permuteo, rembero, tailo
from .reify import canonical, reify
from .run import run
from .search import Goal, solve
from .state import State, Tail, isvar, walk
from .tabling import tabled

__all__ = [
    "DisequalityStore",
    "Goal",
    "Relation",
    "SearchLimit",
    "State",
    "Tail",
    "Zzz",
    "appendo",
    "canonical",
    "conde",
    "conj",
    "conso",
    "disj",
    "eq",
    "fact",
    "facts",
    "fail",
    "fresh",
    "heado",
    "isvar",
    "itero",
    "lall",
    "lany",
    "membero",
    "neq",
    "nullo",
    "permuteo",
    "reify",
    "relation",
    "rembero",
    "run",
    "solve",
    "succeed",
    "tabled",
    "tailo",
    "var",
    "vars",
    "walk",
]
