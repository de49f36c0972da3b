"""Autograd on one process: the gradients of the Python API's ops (operators, scalar forms,
broadcasting, reductions, shapes and indexing, nn.functional) against finite differences (gradcheck.py), the
rules finite differences cannot show (ties, 0 ** 0, dtypes), the API (requires_grad,
no_grad, retain_graph, accumulation, detach, integer tensors), and a rank raising during
backward ending a 2-rank job. The C++ suite (tests/cpp/grad_test.cc) checks every op and
layout; this one the Python spellings.
"""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from gradcheck import check_gradients
from jobs import launch_script


def rand(*shape, seed=0, low=-2.0, high=2.0):
    return np.random.default_rng(seed).uniform(low, high, shape)


def positive(*shape, seed=0):
    return rand(*shape, seed=seed, low=0.5, high=2.0)


# ---------------------------------------------------------------------------------------------
# Gradients against finite differences.

@pytest.mark.parametrize("f", [
    lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b, lambda a, b: a / b,
    lambda a, b: mf.maximum(a, b), lambda a, b: mf.minimum(a, b),
], ids=["add", "sub", "mul", "div", "maximum", "minimum"])
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4))], ids=str)
def test_binary_with_broadcasting(f, shapes):
    check_gradients(f, [rand(*shapes[0], seed=1), rand(*shapes[1], seed=2) + 3])


def test_pow_of_two_tensors():
    check_gradients(lambda a, b: a ** b, [positive(3, 4, seed=1), rand(4, seed=2)])


@pytest.mark.parametrize("f", [
    lambda x: x + 2, lambda x: 2 - x, lambda x: x * 3, lambda x: 3 * x, lambda x: x / 4, lambda x: 4 / x,
    lambda x: x ** 2, lambda x: x ** 0.5, lambda x: 2 ** x, lambda x: -x, lambda x: abs(x),
], ids=["x+2", "2-x", "x*3", "3*x", "x/4", "4/x", "x**2", "x**0.5", "2**x", "-x", "abs"])
def test_scalar_forms(f):
    check_gradients(f, [positive(3, 4)])


@pytest.mark.parametrize("f", [mf.exp, mf.log, mf.sqrt, mf.rsqrt, mf.tanh, mf.sigmoid, mf.relu, F.gelu,
                               F.silu, mf.trunc])
def test_unary(f):
    check_gradients(f, [rand(3, 4) if f not in (mf.log, mf.sqrt, mf.rsqrt) else positive(3, 4)])


def test_where_gives_no_gradient_to_its_condition():
    cond = (np.arange(12) % 3 == 0).reshape(3, 4)
    grads = check_gradients(lambda c, a, b: mf.where(c, a, b), [cond, rand(3, 4, seed=1), rand(4, seed=2)])
    assert grads[0] is None


@pytest.mark.parametrize("op", [mf.sum, mf.mean, mf.amax, mf.amin])
@pytest.mark.parametrize("dim,keepdim", [(None, False), (1, False), ((0, 2), True), (-1, True)])
def test_reductions(op, dim, keepdim):
    check_gradients(lambda x: op(x, dim=dim, keepdim=keepdim), [rand(2, 3, 4)])


@pytest.mark.parametrize("f", [
    lambda x: x.T, lambda x: x.permute(1, 2, 0), lambda x: x.reshape(6, -1), lambda x: x[1:, ::2, -1],
    lambda x: x[..., 1:3], lambda x: x.narrow(1, 1, 2), lambda x: x[:, :1].expand(3, 2, 5, 4),
    lambda x: mf.cat([x, x * 2], dim=1), lambda x: mf.stack([x, -x], dim=-1),
], ids=["T", "permute", "reshape", "index", "ellipsis", "narrow", "expand", "cat", "stack"])
def test_shape_ops(f):
    check_gradients(f, [rand(2, 3, 4)])


def test_a_small_network():
    def mlp(x, w1, b1, w2):
        return F.log_softmax(mf.tanh(x @ w1 + b1) @ w2, dim=-1)
    check_gradients(mlp, [rand(5, 3, seed=1), rand(3, 4, seed=2), rand(4, seed=3), rand(4, 2, seed=4)])


def test_nn_functional():
    target = mf.tensor(np.array([1, 0, 2, 1]))
    check_gradients(lambda x, w, b: F.cross_entropy(F.layer_norm(x, [3], w, b), target),
                    [rand(4, 3, seed=1), rand(3, seed=2), rand(3, seed=3)])
    check_gradients(lambda w: F.embedding(mf.tensor(np.array([[0, 2], [2, 1]])), w), [rand(3, 4)])
    check_gradients(F.linear, [rand(2, 5, 3, seed=1), rand(4, 3, seed=2), rand(4, seed=3)])


# ---------------------------------------------------------------------------------------------
# What finite differences cannot show.

def test_amax_splits_dy_evenly_among_ties_like_torch():
    x = mf.tensor(np.array([[1.0, 3.0, 3.0, 3.0], [5.0, 2.0, 5.0, -1.0]]), requires_grad=True)
    mf.amax(x, dim=1).backward(mf.tensor(np.array([6.0, 4.0])))
    maxima = x.numpy() == x.numpy().max(axis=1, keepdims=True)
    np.testing.assert_array_equal(x.grad.numpy(), maxima * (np.array([[6.0], [4.0]]) / maxima.sum(1, keepdims=True)))


def test_zero_to_the_zero_has_zero_gradients_like_torch():
    a = mf.tensor(np.zeros(2), requires_grad=True)
    b = mf.tensor(np.zeros(2), requires_grad=True)
    (a ** b).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [0, 0])
    np.testing.assert_array_equal(b.grad.numpy(), [0, 0])
    x = mf.tensor(np.zeros(2), requires_grad=True)
    (x ** 0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0, 0])


def test_gradients_keep_each_inputs_dtype():
    x = mf.tensor(np.array([1.5, -2.0], dtype=np.float32), requires_grad=True)
    (x.double() * mf.tensor(np.array([3.0, 4.0]))).sum().backward()
    assert x.grad.dtype == mf.float32
    np.testing.assert_array_equal(x.grad.numpy(), np.array([3.0, 4.0], dtype=np.float32))


def test_a_tensor_used_twice_gets_both_gradients():
    x = mf.tensor(np.array([1.0, 2.0]), requires_grad=True)
    (x * x + x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), 2 * x.numpy() + 1)


# ---------------------------------------------------------------------------------------------
# The API.

def leaf(values=(1.0, 2.0, 3.0)):
    return mf.tensor(np.array(values), requires_grad=True)


def test_leaves_and_results():
    x = leaf()
    assert x.is_leaf and x.requires_grad and x.grad is None and x.grad_fn is None
    y = x * 2
    assert not y.is_leaf and y.requires_grad and y.grad_fn.name() == "MulBackward0"
    c = mf.tensor(np.ones(3))
    assert not c.requires_grad and not (c * 2).requires_grad


def test_no_grad_records_nothing_and_restores_the_mode():
    x = leaf()
    with mf.no_grad():
        y = x * 2
        assert not mf.is_grad_enabled()
    assert mf.is_grad_enabled()
    assert not y.requires_grad and y.is_leaf
    with pytest.raises(ValueError, match="does not require grad"):
        y.sum().backward()

    @mf.no_grad()
    def double(t):
        return t * 2
    assert not double(x).requires_grad
    with pytest.raises(RuntimeError):
        with mf.no_grad():
            raise RuntimeError("inside")
    assert mf.is_grad_enabled()


def test_requires_grad_only_on_floating_leaves():
    computed = leaf() * 2
    computed.requires_grad = True  # as torch: a computed tensor that requires grad already, unchanged
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        computed.requires_grad = False
    with pytest.raises(ValueError, match="floating"):
        mf.tensor(np.arange(3)).requires_grad = True


def test_integer_and_comparison_results_take_no_gradient():
    x = leaf()
    assert not (x > 1).requires_grad and (x > 1).dtype == mf.bool
    assert not x.long().requires_grad
    quotient = mf.floor_divide(x, x)  # a float result: torch's zero gradient, as round's
    assert quotient.requires_grad
    (grad,) = mf.autograd.grad(quotient.sum(), x)
    np.testing.assert_array_equal(grad.numpy(), np.zeros_like(x.numpy()))
    values = mf.tensor(np.array([5.0, 6.0]), requires_grad=True)
    mf.where(mf.tensor(np.array([False, True])), values, 0.0).sum().backward()
    np.testing.assert_array_equal(values.grad.numpy(), [0, 1])


def test_backward_twice_raises_unless_the_graph_is_retained():
    x = leaf()
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), 2 * (2 * x.numpy()))
    with pytest.raises(ValueError, match="a second time"):
        y.backward()


def test_gradients_accumulate_over_backward_calls_until_reset():
    x = leaf()
    (x * 2).sum().backward()
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), 2 + 2 * x.numpy())
    x.grad = None
    (x * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3, 3, 3])


def test_backward_needs_a_gradient_for_more_than_one_element():
    x = leaf()
    with pytest.raises(ValueError, match="one element"):
        (x * 2).backward()
    with pytest.raises(ValueError, match="shape"):
        (x * 2).backward(mf.tensor(np.ones(2)))


def test_detach_cuts_the_graph_and_shares_the_value():
    x = leaf()
    d = (x * 2).detach()
    assert d.is_leaf and not d.requires_grad
    np.testing.assert_array_equal(d.numpy(), 2 * x.numpy())
    y = leaf((4.0, 5.0, 6.0))
    (y * d).sum().backward()
    assert x.grad is None
    np.testing.assert_array_equal(y.grad.numpy(), d.numpy())


# ---------------------------------------------------------------------------------------------
# A rank raising during backward ends the job: rank 0 would otherwise wait forever in the
# all-reduce of w's gradient, which rank 1 never joins.

def test_a_rank_raising_during_backward_ends_the_job(tmp_path):
    code, out = launch_script(tmp_path, """
        import numpy as np
        import meshflow as mf
        p = mf.placement("cpu", ranks=[0, 1])
        w = mf.tensor(np.ones((3, 2)), placement=p, sbp=mf.sbp.broadcast, requires_grad=True)
        x = mf.tensor(np.ones((4, 3)), placement=p, sbp=mf.sbp.split(0))
        loss = (x @ w).sum()
        if mf.env.get_rank() == 1:
            loss.backward(mf.tensor(np.ones(5)))  # a local gradient of the wrong shape: raises
        loss.backward()
        print(f"rank {mf.env.get_rank()} finished", w.grad.numpy().sum())
    """, timeout=60)
    assert code != 0, out
    assert "backward(): the gradient has shape" in out, out
    assert "rank 0 finished" not in out, out
