"""In-place ops and views (python/meshflow/_inplace.py): values, dtypes, autograd and aliasing
as PyTorch's (the expected values are worked out by hand or with NumPy)."""
import numpy as np
import pytest

import meshflow as mf


def test_inplace_ops_change_the_tensor_and_return_it():
    x = mf.tensor([1.0, 2.0, 3.0])
    same = x
    assert x.add_(mf.ones(3), alpha=2) is x
    x += 1
    x.mul_(2).sub_(1)
    x /= 2
    np.testing.assert_allclose(same.numpy(), ((np.array([1.0, 2, 3]) + 3) * 2 - 1) / 2)
    x.clamp_(max=4.0)
    x.neg_().abs_().sqrt_()
    np.testing.assert_allclose(x.numpy(), np.sqrt(np.minimum(((np.array([1.0, 2, 3]) + 3) * 2 - 1) / 2, 4)),
                               rtol=1e-6)
    assert x.zero_().numpy().tolist() == [0, 0, 0] and x.fill_(2.5).numpy().tolist() == [2.5] * 3


def test_inplace_keeps_the_dtype_and_refuses_a_higher_category():
    i = mf.tensor([1, 2, 3])
    i += 2
    i *= mf.tensor([2, 2, 2], dtype=mf.int32)
    assert i.dtype == mf.int64 and i.numpy().tolist() == [6, 8, 10]
    with pytest.raises(RuntimeError, match="can't be cast"):
        i += 0.5
    f = mf.tensor([1.0, 2.0])
    f += mf.tensor([0.5, 0.5], dtype=mf.float64)
    assert f.dtype == mf.float32 and f.numpy().tolist() == [1.5, 2.5]
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        f.add_(mf.ones(2, 2))


def test_inplace_on_a_non_leaf_is_recorded_for_autograd():
    a = mf.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    b.add_(1)
    b.mul_(b)  # (2a + 1)^2: the old b stays with the calls that read it
    b.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), 4 * (2 * np.array([1.0, 2.0]) + 1))


def test_a_leaf_that_requires_grad_is_written_only_under_no_grad():
    w = mf.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        w.add_(1)
    with pytest.raises(RuntimeError, match="view of a leaf"):
        w[0:1].mul_(2)
    (w * w).sum().backward()
    with mf.no_grad():
        w.sub_(w.grad, alpha=0.25)
    assert w.requires_grad and w.is_leaf
    np.testing.assert_allclose(w.numpy(), [0.5, 1.0])


def test_a_write_through_a_view_reaches_the_base_and_its_other_views():
    x = mf.zeros(2, 3)
    flat = x.view(6)
    col = x.T
    flat.add_(mf.arange(6.0))
    np.testing.assert_array_equal(x.numpy(), np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(col.numpy(), np.arange(6.0).reshape(2, 3).T)
    col.mul_(10)  # through the transpose
    np.testing.assert_array_equal(x.numpy(), 10 * np.arange(6.0).reshape(2, 3))
    x.fill_(1.0)  # the base written: the views follow
    assert flat.numpy().tolist() == [1.0] * 6


def test_writes_through_indexing_views_and_pieces():
    x = mf.arange(12.0).reshape(3, 4)
    expected = np.arange(12.0).reshape(3, 4)
    row = x[1]
    row.fill_(-1.0)
    expected[1] = -1
    first, second = x.split(2, dim=1)
    second.mul_(2)
    expected[:, 2:] *= 2
    x.narrow(0, 0, 1).zero_()
    expected[0] = 0
    last = x.unbind(0)[2]
    last += 100
    expected[2] += 100
    np.testing.assert_array_equal(x.numpy(), expected)
    np.testing.assert_array_equal(first.numpy(), expected[:, :2])


def test_item_assignment_writes_in_place():
    x = mf.zeros(3, 4)
    x[0] = 1.0
    x[:, 1:3] = mf.tensor([[5.0, 6.0]])
    x[2, -1] = 7
    expected = np.zeros((3, 4), np.float32)
    expected[0] = 1
    expected[:, 1:3] = [[5, 6]]
    expected[2, -1] = 7
    np.testing.assert_array_equal(x.numpy(), expected)


def test_item_assignment_is_differentiable():
    w = mf.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = mf.tensor([10.0], requires_grad=True)
    x = w * 1
    x[1:2] = v * v
    (x * mf.tensor([1.0, 2.0, 3.0])).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), [1.0, 0.0, 3.0])
    np.testing.assert_allclose(v.grad.numpy(), [2 * 2 * 10.0])


def test_detach_and_data_share_the_value_not_the_graph():
    w = mf.tensor([1.0, 2.0], requires_grad=True)
    w.detach().mul_(3)
    np.testing.assert_array_equal(w.numpy(), [3.0, 6.0])
    w.data.add_(1)
    assert w.requires_grad and w.is_leaf and w.numpy().tolist() == [4.0, 7.0]
    lin = mf.nn.Linear(2, 2)
    with mf.no_grad():
        lin.weight.copy_(mf.tensor([[1.0, 2.0], [3.0, 4.0]]))
        lin.bias.zero_()
    np.testing.assert_array_equal(lin(mf.ones(1, 2)).numpy(), [[3.0, 7.0]])


def test_copy_broadcasts_and_casts_and_random_fills_keep_their_bounds():
    x = mf.zeros(2, 3, dtype=mf.float64)
    x.copy_(mf.tensor([1, 2, 3]))
    assert x.dtype == mf.float64 and x.numpy().tolist() == [[1, 2, 3]] * 2
    u = mf.empty(1000).uniform_(-2, 2)
    assert -2 <= u.numpy().min() and u.numpy().max() < 2
    n = mf.empty(2000).normal_(5.0, 0.1)
    assert abs(n.numpy().mean() - 5.0) < 0.02


def test_inplace_ops_in_a_compiled_graph_equal_eager():
    class Step(mf.nn.Graph):
        def build(self, x):
            y = x * 2
            y += 1
            y.mul_(y)
            return y

    x = mf.arange(4.0).to_global(placement=mf.placement("cpu", [0]), sbp=mf.sbp.broadcast)
    np.testing.assert_allclose(Step()(x).numpy(), (2 * np.arange(4.0) + 1) ** 2)


def test_view_refuses_a_transposed_tensor_as_pytorch_and_contiguous_copies_it():
    x = mf.arange(6).reshape(2, 3)
    assert x.is_contiguous() and not x.t().is_contiguous() and not x.permute(1, 0).is_contiguous()
    assert x.permute(0, 1).is_contiguous() and x.unsqueeze(0).transpose(0, 1).is_contiguous()
    assert not mf.ones(3, 1).expand(3, 4).is_contiguous()
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        x.t().view(6)
    assert x.t().reshape(6).numpy().tolist() == [0, 3, 1, 4, 2, 5]
    assert x.t().contiguous().view(6).numpy().tolist() == [0, 3, 1, 4, 2, 5]
    assert x.t().view(1, 3, 2).shape == (1, 3, 2)  # only size-1 dims added: allowed


def test_writes_reach_the_base_through_temporary_views():
    w = mf.tensor([1.0, -1.0], requires_grad=True)
    (w * w).sum().backward()
    w.data -= 0.5 * w.grad.data
    w.grad.data.zero_()  # w.grad and .data are temporaries: the views hold them
    assert w.grad.numpy().tolist() == [0.0, 0.0] and w.numpy().tolist() == [0.0, 0.0]
    lin = mf.nn.Linear(2, 2)
    lin.weight.data[0].fill_(3.0)
    assert lin.weight.numpy()[0].tolist() == [3.0, 3.0]


def test_basic_indexing_views_alias_the_base_memory():
    # as torch's x[0]: a view over x's memory, so a write to that memory that no Python call
    # makes (NumPy's, over a from_numpy tensor) shows in it; a step or a copy does not alias
    arr = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = mf.from_numpy(arr)
    row, rows, first, lifted = x[1], x[1:3], x[0, 1:], x[None]
    arr[1, 2] = -5.0
    arr[0, 3] = -7.0
    assert row.numpy().tolist() == [4.0, 5.0, -5.0, 7.0]
    assert rows.numpy()[0].tolist() == [4.0, 5.0, -5.0, 7.0] and first.numpy().tolist() == [1.0, 2.0, -7.0]
    assert lifted.shape == (1, 3, 4) and lifted.numpy()[0, 1, 2] == -5.0
    row.fill_(1.0)  # writes through the view reach the base, and x's other views
    assert arr[1].tolist() == [1.0] * 4 and rows.numpy()[0].tolist() == [1.0] * 4
    x[1:3] = 0.0
    assert row.numpy().tolist() == [0.0] * 4


def test_a_saved_view_whose_base_is_written_raises_as_torchs():
    # the view dies before the base is written in place (x[0] = 9 writes x's memory): the call
    # that saved it refuses, as torch's (the view shares its base's version count)
    x = mf.tensor([[1.0, 2.0], [3.0, 4.0]])
    w = mf.tensor([10.0, 20.0], requires_grad=True)
    y = (x[0] * w).sum() + (x[1] * w).sum()
    x[0] = 9.0
    x[1].fill_(8.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()
    np.testing.assert_array_equal(x.numpy(), [[9.0, 9.0], [8.0, 8.0]])
    v = mf.tensor([1.0, 2.0], requires_grad=True)
    z = mf.tensor([[1.0, 2.0], [3.0, 4.0]])
    y = (z[0].view(2, 1) * v.view(2, 1)).sum()  # a view of the view: the same count
    z[0] = 0.0
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()
    y = (z[1].view(2, 1) * v.view(2, 1)).sum()  # written before the call: its value is read
    v.grad = None
    y.backward()
    np.testing.assert_array_equal(v.grad.numpy(), [3.0, 4.0])


def test_backward_refuses_a_value_written_through_a_view_since_the_call():
    # torch: a view shares its base's version counter
    w = mf.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = w * 1
    row = h[1:]
    y = (row * row).sum()
    row.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()
    h = w * 1
    y = (h * h).sum()
    h[1:].add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_data_ptr_and_storage_offset_say_what_shares_storage_as_torch_s():
    """Storage identity (docs/porting.md): data_ptr() equal where torch's tensors share storage,
    a view apart from its base by storage_offset() elements; torch 2's values."""
    x = mf.arange(24.0).reshape(4, 6)
    base = x.data_ptr()

    def place(t):
        return (t.data_ptr() - base) // 4, t.storage_offset()

    views = {"view": x.view(6, 4), "row": x[1], "box": x[1:, 2:], "col": x[:, 3], "t": x.t(), "t_row": x.t()[2],
             "narrow": x.narrow(1, 2, 3), "diag1": x.diagonal(1), "diag_1": x.diagonal(-1), "chunk": x.chunk(2, 1)[1],
             "split": x.split(2)[1], "unbind": x.unbind(1)[2], "ell": x[..., 2], "none": x[None, 2, ::2],
             "neg": x[-1, -2], "detach": x.detach(), "data": x.data, "contig": x.contiguous(), "box_box": x[1:][1:, 1:],
             "tt": x.t().t()}
    assert {k: place(v) for k, v in views.items()} == {
        "view": (0, 0), "row": (6, 6), "box": (8, 8), "col": (3, 3), "t": (0, 0), "t_row": (2, 2), "narrow": (2, 2),
        "diag1": (1, 1), "diag_1": (6, 6), "chunk": (3, 3), "split": (12, 12), "unbind": (2, 2), "ell": (2, 2),
        "none": (12, 12), "neg": (22, 22), "detach": (0, 0), "data": (0, 0), "contig": (0, 0), "box_box": (13, 13),
        "tt": (0, 0)}
    assert x.clone().data_ptr() != base and x.t().contiguous().data_ptr() != base
    assert x[1:][1:, 1:].reshape(-1).storage_offset() == 0  # torch's reshape copies there
    x.add_(1)
    assert x.data_ptr() == base  # an in-place write keeps the storage
    a, b = mf.nn.Linear(3, 3), mf.nn.Linear(3, 3)
    b.weight = a.weight
    assert a.weight.data_ptr() == b.weight.data_ptr() and a.weight.data_ptr() != a.bias.data_ptr()
    assert x[1:].untyped_storage().data_ptr() == x.untyped_storage().data_ptr() == base
    assert x[2].untyped_storage().nbytes() == 96
    w = mf.arange(10.0)[2:]
    w.unsqueeze_(0)
    assert w.storage_offset() == 2 and mf.ones(3).expand(2, 3).storage_offset() == 0
