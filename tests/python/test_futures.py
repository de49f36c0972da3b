"""meshflow.futures as torch.futures: collect_all is set once every future is (holding them),
wait_all returns their values in order and raises the first failure's error; then() chains."""
import pytest

from meshflow.futures import Future, collect_all, wait_all


def test_collect_all_is_set_when_the_last_future_is():
    a, b = Future(), Future()
    both = collect_all([a, b])
    a.set_result(1)
    assert not both.done()
    b.set_result(2)
    assert both.done() and [f.value() for f in both.wait()] == [1, 2]
    assert collect_all([]).wait() == []


def test_wait_all_returns_the_values_in_order_and_raises_a_failure():
    a, b, bad = Future(), Future(), Future()
    a.set_result("x"); b.set_result(3)
    assert wait_all([a, b]) == ["x", 3]
    bad.set_exception(ValueError("lost"))
    with pytest.raises(ValueError, match="lost"):
        wait_all([a, bad])


def test_then_chains_on_a_future_set_later():
    a = Future()
    doubled = a.then(lambda f: f.value() * 2)
    assert not doubled.done()
    a.set_result(21)
    assert doubled.wait() == 42
