"""torch.autograd's API in meshflow, one process: autograd.grad (several outputs and
inputs, grad_outputs, non-leaf inputs, allow_unused, materialize_grads, no .grad touched),
autograd.backward over several roots, Tensor.register_hook (seeing
and replacing gradients, removal), retain_grad / retains_grad, requires_grad on non-leaves,
and the grad modes: enable_grad, set_grad_enabled (function, context manager, decorator),
inference_mode. Global tensors: distributed/test_dist_optim_autograd.py."""
import numpy as np
import pytest

import meshflow as mf


def leaf(values):
    return mf.tensor(np.asarray(values, dtype=np.float64), requires_grad=True)


def test_grad_returns_gradients_and_leaves_grad_alone():
    x, w = leaf([1.0, 2.0, 3.0]), leaf([0.5, -1.0, 2.0])
    y = x * w
    loss = (y * y).sum()
    gx, gw, gy = mf.autograd.grad(loss, [x, w, y])
    xv, wv = x.numpy(), w.numpy()
    np.testing.assert_allclose(gx.numpy(), 2 * xv * wv * wv)
    np.testing.assert_allclose(gw.numpy(), 2 * xv * xv * wv)
    np.testing.assert_allclose(gy.numpy(), 2 * xv * wv)
    assert x.grad is None and w.grad is None
    with pytest.raises(ValueError, match="a second time"):  # the graph was freed (retain_graph=None)
        mf.autograd.grad(loss, [x])


def test_grad_with_grad_outputs_and_several_outputs():
    x = leaf([1.0, -2.0])
    a, b = x * 3, x * x
    seed_a, seed_b = np.array([1.0, 2.0]), np.array([-1.0, 0.5])
    (gx,) = mf.autograd.grad([a, b], x, grad_outputs=[mf.tensor(seed_a), mf.tensor(seed_b)])
    np.testing.assert_allclose(gx.numpy(), 3 * seed_a + 2 * x.numpy() * seed_b)
    with pytest.raises(ValueError, match="grad can be implicitly created only for scalar outputs"):
        mf.autograd.grad([a], [x])
    with pytest.raises(RuntimeError, match="grad_outputs should be a sequence of length 2"):
        mf.autograd.grad([a, b], [x], grad_outputs=[mf.tensor(seed_a)])


def test_unused_inputs_and_refused_options():
    x, unused = leaf([1.0, 2.0]), leaf([3.0])
    loss = (x * x).sum()
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        mf.autograd.grad(loss, [x, unused], retain_graph=True)
    gx, none = mf.autograd.grad(loss, [x, unused], allow_unused=True, retain_graph=True)
    assert none is None and gx is not None
    _, zeros = mf.autograd.grad(loss, [x, unused], materialize_grads=True, retain_graph=True)
    np.testing.assert_array_equal(zeros.numpy(), [0.0])
    with pytest.raises(RuntimeError, match="does not require grad"):
        mf.autograd.grad(loss, [mf.tensor(np.ones(2))])
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        mf.autograd.grad(mf.tensor(np.ones(1)).sum(), [x])


def test_backward_over_several_roots_accumulates_once():
    x = leaf([1.0, 2.0])
    mf.autograd.backward([(x * x).sum(), x * 3], [None, mf.tensor(np.array([1.0, -1.0]))])
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.numpy() + [3.0, -3.0])
    mf.autograd.backward((x * 2).sum())
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.numpy() + [5.0, -1.0])
    with pytest.raises(RuntimeError, match="element 1 of tensors does not require grad"):
        mf.autograd.backward([x.sum(), mf.tensor(np.ones(1)).sum()])


def test_hooks_see_and_replace_gradients():
    x = leaf([1.0, 2.0])
    y = x * 2
    seen = []
    y_hook = y.register_hook(lambda g: seen.append(("y", g.numpy().tolist())))
    x.register_hook(lambda g: seen.append(("x", g.numpy().tolist())) or g * 10)
    (y * y).sum().backward(retain_graph=True)
    assert seen == [("y", [4.0, 8.0]), ("x", [8.0, 16.0])]
    np.testing.assert_allclose(x.grad.numpy(), [80.0, 160.0])
    y_hook.remove()
    seen.clear()
    x.grad = None
    y.register_hook(lambda g: g * 0 + 1)  # replaces what flows back from y
    (y * y).sum().backward()
    assert seen == [("x", [2.0, 2.0])]
    np.testing.assert_allclose(x.grad.numpy(), [20.0, 20.0])
    with pytest.raises(RuntimeError, match="cannot register a hook on a tensor that doesn't require gradient"):
        mf.tensor(np.ones(2)).register_hook(lambda g: g)
    z = leaf([1.0])
    z.register_hook(lambda g: mf.tensor(np.ones(3)))
    with pytest.raises(RuntimeError, match=r"hook returned a gradient of shape \(3,\)"):
        (z * 1).sum().backward()


def test_retain_grad_and_requires_grad_on_non_leaves():
    x = leaf([1.0, 2.0])
    y = x * 3
    assert not y.retains_grad and not x.retains_grad
    y.retain_grad()
    y.retain_grad()  # twice: one gradient, not two
    x.retain_grad()  # a leaf keeps its gradient anyway
    assert y.retains_grad and not x.retains_grad
    (y * y).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), 2 * y.numpy())
    computed = x * 2
    computed.requires_grad = True
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        computed.requires_grad_(False)
    with pytest.raises(RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"):
        mf.tensor(np.ones(2)).retain_grad()


def test_grad_modes():
    x = leaf([1.0])
    with mf.no_grad():
        with mf.enable_grad():
            assert (x * 2).requires_grad
        assert not (x * 2).requires_grad
    previous = mf.set_grad_enabled(False)
    assert not mf.is_grad_enabled() and not (x * 2).requires_grad
    mf.set_grad_enabled(True)
    assert mf.is_grad_enabled() and previous is not None
    with mf.set_grad_enabled(False):
        assert not mf.is_grad_enabled()
    assert mf.is_grad_enabled()
    with mf.inference_mode():
        assert not (x * 2).requires_grad
    with mf.inference_mode(False):
        assert (x * 2).requires_grad

    @mf.no_grad()
    def doubled(t):
        return t * 2

    @mf.enable_grad()
    def tripled(t):
        return t * 3

    @mf.inference_mode()
    def halved(t):
        return t * 0.5
    assert not doubled(x).requires_grad and not halved(x).requires_grad
    with mf.no_grad():
        assert tripled(x).requires_grad
    with pytest.raises(TypeError, match="set_grad_enabled expects a bool"):
        mf.set_grad_enabled(1)
    assert mf.autograd.grad is not None and mf.autograd.no_grad is mf.no_grad
