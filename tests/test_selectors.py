"""Variable selection: first-fail's own loop picks what the generic smallest-key selector picks."""

from hypothesis import given, settings
from hypothesis import strategies as st

from relqueens.fd.domain import Wide
from relqueens.fd.labeling import SELECTORS, _best, size
from relqueens.fd.store import Model

bitsets = st.integers(1, 2**9 - 1)
wides = st.tuples(st.integers(-50, 50), st.integers(0, 12)).map(lambda t: Wide(t[0], t[0] + t[1]))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(bitsets, wides), max_size=12), st.data())
def test_first_fail_picks_the_smallest_open_domain_leftmost(D, data):
    idxs = data.draw(st.permutations(range(len(D))))
    generic = _best(lambda d, i, m: size(d))
    assert SELECTORS["ff"](D, idxs, 0, Model()) == generic(D, idxs, 0, Model())
