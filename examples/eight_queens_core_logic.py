"""The core.logic seed's eight-queens program, form by form, in relqueens.

Run it: ``python examples/eight_queens_core_logic.py``

    (defn queens-logic [n]
      (let [colvars (map (fn [i] (l/lvar (str "col-" i))) (range n))]
        (l/run* [q]
          (everyg (fn [lv] (fd/in lv (fd/interval (dec n)))) colvars)
          (fd/distinct colvars)
          (and* (for [i (range n) j (range (inc i) n)
                      :let [row-diff (- j i) ci (nth colvars i) cj (nth colvars j)]]
                  (fresh []
                    (fd/eq (!= cj (+ ci row-diff)))
                    (fd/eq (!= ci (+ cj row-diff))))))
          (l/== q colvars))))
"""

from relqueens import eq, fd, run_all, var
from relqueens.reference import find_all_solutions, quality
from relqueens.render import board_text


def queens_logic(n: int) -> tuple:
    """All solutions, as core.logic's ``queens-logic`` finds them."""
    colvars = [
        var(f"col-{i}") for i in range(n)
    ]  # (map (fn [i] (l/lvar (str "col-" i))) (range n))
    q = var()
    return run_all(  # (l/run* [q] ...)
        q,
        *(fd.in_(lv, fd.interval(0, n - 1)) for lv in colvars),  # (everyg (fn [lv] (fd/in lv ...)))
        fd.distinct(colvars),  # (fd/distinct colvars)
        *(
            goal
            for i in range(n)
            for j in range(i + 1, n)  # (for [i (range n) j (range (inc i) n)] ...)
            for row_diff, ci, cj in [(j - i, colvars[i], colvars[j])]
            for goal in (
                cj != ci + row_diff,
                ci != cj + row_diff,
            )  # (fd/eq (!= cj (+ ci row-diff))) ...
        ),
        eq(q, colvars),  # (l/== q colvars)
    )


def queens_pinned(n: int) -> tuple:
    """The seed's "a queen must stand on a1": one more line, ``(l/== (first colvars) 0)``."""
    colvars = [var() for _ in range(n)]
    return run_all(
        colvars,
        eq(colvars[0], 0),  # the pin, placed first to show that goal order does not matter
        fd.in_(*colvars, fd.interval(0, n - 1)),
        fd.distinct(colvars),
        *(
            c
            for i in range(n)
            for j in range(i + 1, n)
            for c in (colvars[j] != colvars[i] + (j - i), colvars[i] != colvars[j] + (j - i))
        ),
    )


if __name__ == "__main__":
    outcome = queens_logic(8)
    reference = find_all_solutions(8)
    # [(= (into #{} reference-outcome) (into #{} outcome)) (every? zero? ...) ... (count outcome)]
    print(
        [
            set(map(tuple, outcome)) == set(reference),
            all(quality(b) == 0 for b in reference),
            all(quality(b) == 0 for b in outcome),
            len(outcome),
        ]
    )
    print("(take 1 (queens-logic 8)) ->", outcome[:1])
    print(board_text(outcome[0]))
    print(f"with a queen on a1: {len(queens_pinned(8))} of {len(outcome)}")
