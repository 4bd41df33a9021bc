import pytest
from hypothesis import given
from hypothesis import strategies as st

from relqueens.fd import Domain, domain, domain_of, interval
from relqueens.fd.domain import MAX_WIDTH

values = st.sets(st.integers(-50, 50), min_size=1, max_size=20)


def test_interval_basics():
    d = interval(-3, 4)
    assert len(d) == 8
    assert (d.min, d.max) == (-3, 4)
    assert -3 in d and 4 in d and 5 not in d and -4 not in d
    assert list(d) == list(range(-3, 5))
    assert repr(d) == "{-3..4}"


def test_set_repr_and_mixed_repr():
    assert repr(domain(1, 3, 5)) == "{1, 3, 5}"
    assert repr(domain(1, 2, 3, 7)) == "{1..3, 7}"
    assert repr(domain(4)) == "{4}"
    assert repr(interval(0, 3).remove(0).remove(1).remove(2).remove(3)) == "{}"


def test_remove_intersect_union():
    d = interval(0, 7)
    assert list(d.remove(3)) == [0, 1, 2, 4, 5, 6, 7]
    assert d.remove(99) is d
    assert d.remove(3).remove(3) == d.remove(3)
    assert interval(0, 5) & interval(3, 9) == interval(3, 5)
    assert interval(0, 2) & interval(5, 9) == Domain(0, 0)
    assert not (interval(0, 2) & interval(5, 9))
    assert interval(0, 2) | domain(5) == domain(0, 1, 2, 5)
    assert interval(0, 2).shift(-5) == interval(-5, -3)


def test_membership_of_non_integers_is_false():
    d = interval(0, 3)
    assert "1" not in d and 1.0 not in d and True not in d


def test_equality_and_hash():
    assert interval(2, 4) == domain(4, 3, 2)
    assert hash(interval(2, 4)) == hash(domain(2, 3, 4))
    assert interval(2, 4) != interval(2, 5)
    assert len({interval(0, 3), domain(0, 1, 2, 3)}) == 1


def test_immutable():
    with pytest.raises(AttributeError):
        interval(0, 1).lo = 5


def test_empty_domain_has_no_bounds():
    empty = interval(0, 1) & interval(3, 4)
    with pytest.raises(ValueError):
        _ = empty.min
    with pytest.raises(ValueError):
        _ = empty.max
    assert len(empty) == 0 and list(empty) == []


def test_singleton():
    assert domain(3).is_singleton()
    assert not interval(3, 4).is_singleton()
    assert not (interval(0, 1) & domain(5)).is_singleton()


def test_large_domain_is_compact_and_fast():
    d = interval(-5000, 5000)
    assert len(d) == 10001
    e = d.remove(0) & interval(-10, 10_000)
    assert len(e) == 5010 and 0 not in e and e.min == -10 and e.max == 5000
    assert d.bits.bit_length() == 10001


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: interval(5, 2), "empty"),
        (lambda: interval(0.5, 2), "integer"),
        (lambda: interval(0, "7"), "integer"),
        (lambda: interval(True, 3), "integer"),
        (lambda: domain(), "at least one value"),
        (lambda: domain(1, 2.5), "integer"),
        (lambda: domain(0, MAX_WIDTH), "at most"),
        (lambda: interval(0, 3) & [1, 2], "intersect"),
        (lambda: interval(0, 3).remove("x"), "integer"),
    ],
)
def test_bad_domains_raise_clear_errors(make, message):
    with pytest.raises((TypeError, ValueError), match=message):
        make()


@given(values, values)
def test_operations_agree_with_python_sets(a, b):
    da, db = domain_of(a), domain_of(b)
    assert set(da) == a
    assert set(da & db) == a & b
    assert set(da | db) == a | b
    assert len(da) == len(a)
    assert (da.min, da.max) == (min(a), max(a))
    v = sorted(a)[0]
    assert set(da.remove(v)) == a - {v}
    assert (da == db) == (a == b)
    assert list(da) == sorted(a)
