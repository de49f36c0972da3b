"""What ported programs met (issue 37, fourth programs round), against NumPy and torch's
documented rules: a list index that stands for a tuple of indices, addcmul/addcdiv's promotion."""
import numpy as np
import pytest

import meshflow as mf


# ---- a list of index sequences is a tuple of indices (torch's and old NumPy's rule)

def test_list_of_index_sequences_is_a_tuple():
    a = np.arange(12).reshape(3, 4)
    x = mf.tensor(a)
    rows, cols = [0, 1], [2, 2]
    assert np.array_equal(x[[rows, cols]].numpy(), a[rows, cols])
    assert np.array_equal(x[[mf.tensor(rows), mf.tensor(cols)]].numpy(), a[rows, cols])
    assert np.array_equal(x[[0, slice(None)]].numpy(), a[0, :])
    assert np.array_equal(x[[[0, 2]]].numpy(), a[[0, 2]])
    # a list of ints and an array stay one index along dim 0
    assert np.array_equal(x[[0, 2]].numpy(), a[[0, 2]])
    assert np.array_equal(x[np.array([[0, 1], [2, 2]])].numpy(), a[np.array([[0, 1], [2, 2]])])
    y = x.clone()
    y[[rows, cols]] = -1
    b = a.copy()
    b[rows, cols] = -1
    assert np.array_equal(y.numpy(), b)


# ---- addcmul / addcdiv promote all three operands before computing

def test_addcmul_addcdiv_compute_in_the_promoted_dtype():
    u = np.array([250, 3], np.uint8)
    f = np.array([0.5, 1.0], np.float32)
    want = f + 0.5 * u.astype(np.float32) * u.astype(np.float32)  # never wraps in uint8
    x = mf.tensor(f)
    assert np.allclose(mf.addcmul(x, mf.tensor(u), mf.tensor(u), value=0.5).numpy(), want)
    assert np.allclose(x.clone().addcmul_(mf.tensor(u), mf.tensor(u), value=0.5).numpy(), want)
    assert np.allclose(mf.addcdiv(x, mf.tensor(u), x, value=2).numpy(), f + 2 * u.astype(np.float32) / f)
    i = mf.tensor([1, 2])
    assert mf.addcmul(i, i, i, value=3).numpy().tolist() == [4, 14]
    with pytest.raises(RuntimeError, match="floating point"):
        mf.addcmul(i, i, i, value=0.5)
    with pytest.raises(RuntimeError, match="Integer division"):
        mf.addcdiv(x, i, i)


# ---- the pointwise losses broadcast a target of another shape, as torch's

def test_regression_losses_broadcast_the_target_with_a_warning():
    import meshflow.nn.functional as F
    pred = np.arange(4, dtype=np.float32).reshape(4, 1)
    target = np.array([0.5, 1.0, 4.0, -1.0], np.float32)
    d = pred - target  # [4, 4]: the classic [N, 1] against [N] mistake, as torch computes it
    x = mf.tensor(pred, requires_grad=True)
    with pytest.warns(UserWarning, match="different to the input size"):
        loss = F.mse_loss(x, mf.tensor(target))
    assert np.isclose(loss.item(), (d * d).mean())
    loss.backward()
    assert np.allclose(x.grad.numpy(), (2 * d).sum(1, keepdims=True) / d.size)
    with pytest.warns(UserWarning):
        assert np.isclose(F.l1_loss(mf.tensor(pred), mf.tensor(target), reduction="sum").item(), np.abs(d).sum())
    with pytest.warns(UserWarning):
        assert F.huber_loss(mf.tensor(pred), mf.tensor(target), reduction="none").shape == (4, 4)
    with pytest.warns(UserWarning):
        assert F.smooth_l1_loss(mf.tensor(pred), mf.tensor(target), reduction="none").shape == (4, 4)
    with pytest.raises(RuntimeError), pytest.warns(UserWarning):
        F.mse_loss(mf.ones(2, 3), mf.ones(4))
    with pytest.raises(ValueError):  # torch refuses these
        F.binary_cross_entropy_with_logits(mf.ones(2, 3), mf.ones(3))
