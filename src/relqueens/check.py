"""Cross-checking the relational answers against the reference backtracker."""

from __future__ import annotations

from dataclasses import dataclass

from .queens import queens
from .reference import find_all_solutions, fundamental_solutions


@dataclass(frozen=True)
class CheckReport:
    """Both solvers' answers for one n, as sets, and where they differ."""

    n: int
    relational: int
    reference: int
    missing: tuple[tuple[int, ...], ...]  # found by the reference solver only
    extra: tuple[tuple[int, ...], ...]  # found by the relational solver only
    relational_fundamental: int
    reference_fundamental: int
    fundamental_missing: tuple[tuple[int, ...], ...]
    fundamental_extra: tuple[tuple[int, ...], ...]

    @property
    def ok(self) -> bool:
        """True when both solution sets agree, with and without symmetry breaking."""
        return not (
            self.missing or self.extra or self.fundamental_missing or self.fundamental_extra
        )

    def __str__(self) -> str:
        lines = [
            (
                f"n = {self.n}: relational {self.relational}, reference {self.reference} "
                f"solutions; fundamental: relational {self.relational_fundamental}, "
                f"reference {self.reference_fundamental}"
            )
        ]
        for label, boards in (
            ("only in the reference", self.missing),
            ("only in the relational answers", self.extra),
            ("fundamental, only in the reference", self.fundamental_missing),
            ("fundamental, only in the relational answers", self.fundamental_extra),
        ):
            if boards:
                lines.append(
                    f"  {label}: {', '.join(map(str, boards[:10]))}"
                    + (" ..." if len(boards) > 10 else "")
                )
        lines.append("  agree" if self.ok else "  DISAGREE")
        return "\n".join(lines)


def check(n: int) -> CheckReport:
    """Compare ``queens(n)`` with the backtracker, and ``symmetry=True`` with the canonical forms.

    >>> check(6).ok
    True
    """
    rel, ref = set(queens(n)), set(find_all_solutions(n))
    rel_f, ref_f = set(queens(n, symmetry=True)), set(fundamental_solutions(n))
    return CheckReport(
        n,
        len(rel),
        len(ref),
        tuple(sorted(ref - rel)),
        tuple(sorted(rel - ref)),
        len(rel_f),
        len(ref_f),
        tuple(sorted(ref_f - rel_f)),
        tuple(sorted(rel_f - ref_f)),
    )
