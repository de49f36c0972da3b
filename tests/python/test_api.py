"""PyTorch's conveniences (python/meshflow/_api.py, linalg, utils.data, cuda, file-object
save/load), against NumPy."""
import io

import numpy as np
import pytest

import meshflow as mf
from meshflow.utils.data import DataLoader, TensorDataset, random_split


def test_clone_t_movedim_tile_outer():
    x = mf.arange(6.0).reshape(2, 3)
    c = x.clone()
    assert c is not x and c.numpy().tolist() == x.numpy().tolist()
    w = mf.tensor([1.0, 2.0], requires_grad=True)
    (w.clone() * 3).sum().backward()
    assert w.grad.numpy().tolist() == [3.0, 3.0]
    assert mf.tensor(2.0).clone().shape == ()
    assert x.t().numpy().tolist() == np.arange(6.0).reshape(2, 3).T.tolist() and mf.t(mf.ones(3)).shape == (3,)
    with pytest.raises(RuntimeError, match="<= 2 dimensions"):
        mf.zeros(1, 2, 3).t()
    a = np.arange(24).reshape(2, 3, 4)
    np.testing.assert_array_equal(mf.movedim(mf.tensor(a), 0, -1).numpy(), np.moveaxis(a, 0, -1))
    np.testing.assert_array_equal(mf.tensor(a).movedim((0, 1), (2, 0)).numpy(), np.moveaxis(a, (0, 1), (2, 0)))
    np.testing.assert_array_equal(mf.tile(mf.tensor([[1, 2]]), (2, 2)).numpy(), np.tile([[1, 2]], (2, 2)))
    np.testing.assert_array_equal(mf.outer(mf.arange(2.0), mf.arange(3.0)).numpy(), np.outer(np.arange(2.0),
                                                                                             np.arange(3.0)))


@pytest.mark.parametrize("k", [0, 1, -2])
def test_diag_both_ways(k):
    v = np.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(mf.diag(mf.tensor(v), k).numpy(), np.diag(v, k))
    m = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(mf.diag(mf.tensor(m), k).numpy(), np.diag(m, k))


def test_meshgrid_repeat_interleave_and_comparisons():
    a, b = mf.meshgrid(mf.arange(2), mf.arange(3), indexing="ij")
    na, nb = np.meshgrid(np.arange(2), np.arange(3), indexing="ij")
    assert a.numpy().tolist() == na.tolist() and b.numpy().tolist() == nb.tolist()
    a, b = mf.meshgrid(mf.arange(2), mf.arange(3), indexing="xy")
    na, nb = np.meshgrid(np.arange(2), np.arange(3), indexing="xy")
    assert a.numpy().tolist() == na.tolist() and b.numpy().tolist() == nb.tolist()
    assert mf.repeat_interleave(mf.tensor([1, 2]), 2).numpy().tolist() == [1, 1, 2, 2]
    assert mf.tensor([[1, 2], [3, 4]]).repeat_interleave(mf.tensor([1, 2]), dim=0).numpy().tolist() == \
        [[1, 2], [3, 4], [3, 4]]
    assert mf.equal(mf.tensor([1, 2]), mf.tensor([1, 2])) and not mf.equal(mf.tensor([1, 2]), mf.tensor([1]))
    assert mf.allclose(mf.tensor([1.0, 2.0]), mf.tensor([1.0, 2.0 + 1e-9]))
    assert mf.isclose(mf.tensor([1.0, float("nan")]), mf.tensor([1.1, float("nan")]), equal_nan=True).numpy().tolist() \
        == [False, True]
    assert mf.count_nonzero(mf.tensor([0, 1, 2, 0])).item() == 2


def test_creation_extras_and_metadata():
    assert mf.empty(2, 3).shape == (2, 3) and mf.empty_like(mf.ones(2, dtype=mf.int32)).dtype == mf.int32
    assert mf.ones(2, requires_grad=True).requires_grad and mf.arange(3.0, requires_grad=True).requires_grad
    x = mf.ones(2, dtype=mf.float64)
    assert x.new_zeros(3).dtype == mf.float64 and x.new_full((2,), 7).numpy().tolist() == [7.0, 7.0]
    assert x.new_tensor([1, 2]).dtype == mf.float64 and x.element_size() == 8 and x.is_floating_point()
    assert mf.finfo(mf.float32).eps == np.finfo(np.float32).eps and mf.iinfo(mf.int32).max == 2**31 - 1
    assert mf.Size([2, 3]) == (2, 3) and mf.is_tensor(x) and mf.numel(x) == 2
    assert mf.ones(2).type_as(x).dtype == mf.float64 and mf.ones(2, 3).view_as(mf.ones(3, 2)).shape == (3, 2)


def test_unique_bincount_nan_to_num():
    x = mf.tensor([3, 1, 2, 3, 1, 3])
    values, inverse, counts = mf.unique(x, return_inverse=True, return_counts=True)
    nv, ni, nc = np.unique([3, 1, 2, 3, 1, 3], return_inverse=True, return_counts=True)
    assert values.numpy().tolist() == nv.tolist() and inverse.numpy().tolist() == ni.tolist()
    assert counts.numpy().tolist() == nc.tolist()
    assert mf.bincount(x, minlength=5).numpy().tolist() == [0, 2, 1, 3, 0]
    with pytest.raises(RuntimeError, match="non-negative"):
        mf.bincount(mf.tensor([-1, 2]))
    y = mf.nan_to_num(mf.tensor([float("nan"), float("inf"), -float("inf"), 1.0]), nan=2.0)
    assert y.numpy().tolist() == [2.0, float(np.finfo(np.float32).max), float(np.finfo(np.float32).min), 1.0]


def test_linalg_norms():
    v = np.array([3.0, -4.0])
    m = np.array([[1.0, -2.0], [3.0, 4.0]])
    assert mf.linalg.norm(mf.tensor(v)).item() == pytest.approx(5.0)
    assert mf.linalg.vector_norm(mf.tensor(v), ord=float("inf")).item() == 4.0
    assert mf.linalg.vector_norm(mf.tensor(v), ord=1).item() == 7.0
    assert mf.linalg.norm(mf.tensor(m)).item() == pytest.approx(np.linalg.norm(m))
    for ord_ in (1, float("inf"), -1, 2, -2, "nuc"):
        assert mf.linalg.matrix_norm(mf.tensor(m), ord=ord_).item() == pytest.approx(np.linalg.norm(m, ord_))
    with pytest.raises(ValueError, match="ord=3"):
        mf.linalg.matrix_norm(mf.tensor(m), ord=3)


def test_data_loader_batches_shuffles_and_splits():
    x, y = mf.arange(10.0).reshape(5, 2), mf.arange(5)
    data = TensorDataset(x, y)
    batches = list(DataLoader(data, batch_size=2))
    assert len(DataLoader(data, batch_size=2)) == 3 and [b[1].numpy().tolist() for b in batches] == [[0, 1], [2, 3],
                                                                                                       [4]]
    assert batches[0][0].shape == (2, 2)
    mf.manual_seed(3)
    first = [b[1].numpy().tolist() for b in DataLoader(data, batch_size=2, shuffle=True, drop_last=True)]
    mf.manual_seed(3)
    again = [b[1].numpy().tolist() for b in DataLoader(data, batch_size=2, shuffle=True, drop_last=True)]
    assert first == again and len(first) == 2 and len({v for b in first for v in b}) == 4
    parts = random_split(data, [3, 2])
    assert [len(p) for p in parts] == [3, 2]
    assert sorted(int(p[i][1].item()) for p in parts for i in range(len(p))) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="batch_size"):
        DataLoader(data, batch_size=0)


def test_save_and_load_through_a_file_object():
    m = mf.nn.Linear(2, 3)
    buf = io.BytesIO()
    mf.save({"model": m.state_dict(), "step": 4, "flags": mf.tensor([True, False])}, buf)
    buf.seek(0)
    loaded = mf.load(buf)
    assert loaded["step"] == 4 and loaded["flags"].dtype == mf.bool
    np.testing.assert_array_equal(loaded["model"]["weight"].numpy(), m.weight.numpy())
    # A data-parallel state (broadcast over every rank) saves its values, as a .pt path does;
    # a split or partial one needs a directory, where each rank writes its part.
    g = mf.ones(2).to_global(placement=mf.placement("cpu", [0]), sbp=mf.sbp.broadcast)
    buf = io.BytesIO()
    mf.save({"g": g}, buf)
    buf.seek(0)
    np.testing.assert_array_equal(mf.load(buf)["g"].numpy(), [1.0, 1.0])
    s = mf.ones(2).to_global(placement=mf.placement("cpu", [0]), sbp=mf.sbp.split(0))
    with pytest.raises(ValueError, match="expected a directory path to save split or partial"):
        mf.save({"s": s}, io.BytesIO())


def test_cuda_queries_answer_without_a_gpu():
    assert isinstance(mf.cuda.is_available(), bool) and mf.cuda.device_count() >= 0
    assert mf.cuda.is_available() == (mf.cuda.device_count() > 0)


def test_more_compositions_against_numpy():
    a = np.arange(12.0).reshape(3, 4)
    b = np.arange(8.0).reshape(4, 2)
    v = np.array([1.0, -2.0, 3.0])
    A, B, V = mf.tensor(a), mf.tensor(b), mf.tensor(v)
    close = np.testing.assert_allclose
    close(mf.addmm(mf.ones(3, 2, dtype=mf.float64), A, B, beta=0.5, alpha=2).numpy(), 0.5 + 2 * a @ b)
    close(mf.diagonal(A, 1).numpy(), np.diagonal(a, 1))
    close(mf.diagonal(mf.tensor(np.arange(24.0).reshape(2, 3, 4)), -1, 1, 2).numpy(),
          np.diagonal(np.arange(24.0).reshape(2, 3, 4), -1, 1, 2))
    assert mf.trace(A[:, :3]).item() == np.trace(a[:, :3])
    close(mf.hstack([V, V]).numpy(), np.hstack([v, v]))
    close(mf.vstack([V, V]).numpy(), np.vstack([v, v]))
    close(mf.column_stack([V, V]).numpy(), np.column_stack([v, v]))
    close(mf.logaddexp(V, V * 2).numpy(), np.logaddexp(v, v * 2))
    close(mf.sinc(mf.tensor([0.0, 0.5])).numpy(), np.sinc([0.0, 0.5]))
    close(mf.fmax(mf.tensor([1.0, np.nan]), mf.tensor([np.nan, 2.0])).numpy(), np.fmax([1.0, np.nan], [np.nan, 2.0]))
    close(mf.diff(A, n=2, dim=1).numpy(), np.diff(a, n=2, axis=1))
    assert [t.numpy().tolist() for t in mf.tensor_split(mf.arange(7), 3)] == [x.tolist() for x in
                                                                             np.array_split(np.arange(7), 3)]
    for k in (1, 2, 3):
        close(mf.rot90(A, k).numpy(), np.rot90(a, k))
    close(mf.logspace(0, 2, 3).numpy(), np.logspace(0, 2, 3), rtol=1e-6)
    close(mf.cross(V, mf.tensor([0.5, 1.0, -1.0])).numpy(), np.cross(v, [0.5, 1.0, -1.0]))
    close(mf.cdist(A[:2], A[1:]).numpy(), np.linalg.norm(a[:2, None] - a[None, 1:], axis=-1))
    close(mf.kron(mf.eye(2, dtype=mf.float64), A[:2, :2]).numpy(), np.kron(np.eye(2), a[:2, :2]))
    close(mf.tensordot(A, B, dims=1).numpy(), np.tensordot(a, b, 1))
    bounds = np.array([1.0, 2.0, 3.0])
    x = np.array([0.5, 2.0, 3.5])
    assert mf.bucketize(mf.tensor(x), mf.tensor(bounds)).numpy().tolist() == np.searchsorted(bounds, x).tolist()
    assert mf.searchsorted(mf.tensor(bounds), mf.tensor(x), right=True).numpy().tolist() == \
        np.searchsorted(bounds, x, side="right").tolist()
    assert mf.isin(mf.tensor([1, 2, 3]), mf.tensor([2, 5])).numpy().tolist() == [False, True, False]
    assert mf.signbit(mf.tensor([-0.0, 1.0, -2.0])).numpy().tolist() == [True, False, True]
    values, indices = mf.cummax(mf.tensor([1.0, 3.0, 2.0, 3.0, 5.0]), 0)
    assert values.numpy().tolist() == [1, 3, 3, 3, 5] and indices.numpy().tolist() == [0, 1, 1, 3, 4]
    assert mf.aminmax(A, dim=0).max.numpy().tolist() == a.max(0).tolist()
    assert mf.float is mf.float32 and mf.long is mf.int64 and mf.int is mf.int32 and mf.double is mf.float64


def test_addmm_of_a_bias_is_one_product_with_its_gradients():
    rng = np.random.default_rng(3)
    a, b, bias = rng.standard_normal((5, 4)), rng.standard_normal((4, 3)), rng.standard_normal(3)
    A, B = mf.tensor(a, requires_grad=True), mf.tensor(b, requires_grad=True)
    Bias = mf.nn.Parameter(mf.tensor(bias))  # as Hugging Face's Conv1D holds it
    y = mf.addmm(Bias, A, B)
    dy = rng.standard_normal((5, 3))
    y.backward(mf.tensor(dy))
    np.testing.assert_allclose(y.detach().numpy(), bias + a @ b, rtol=1e-12)
    np.testing.assert_allclose(Bias.grad.numpy(), dy.sum(0), rtol=1e-12)
    np.testing.assert_allclose(A.grad.numpy(), dy @ b.T, rtol=1e-12)
    np.testing.assert_allclose(B.grad.numpy(), a.T @ dy, rtol=1e-12)
    # Another input shape or dtype adds as before: broadcast, promoted.
    np.testing.assert_allclose(mf.addmm(mf.tensor(bias[None]), A, B).detach().numpy(), bias + a @ b, rtol=1e-12)
    assert mf.addmm(mf.tensor(bias.astype(np.float32)), A, B).dtype == mf.float64


def test_legacy_constructors_quantile_histc_matrix_power_generator():
    assert mf.Tensor([[1, 2], [3, 4]]).dtype == mf.float32 and mf.Tensor(2, 3).shape == (2, 3)
    assert mf.Tensor().shape == (0,) and mf.LongTensor([1.0, 2.0]).dtype == mf.int64
    assert mf.FloatTensor(mf.Size([2])).shape == (2,) and mf.Tensor((2, 3)).numpy().tolist() == [2.0, 3.0]
    assert mf.DoubleTensor([1]).dtype == mf.float64 and mf.BoolTensor([1, 0]).numpy().tolist() == [True, False]
    with pytest.raises(TypeError, match="expected sizes"):
        mf.Tensor([1.0], 2)
    a = np.array([[1.0, 7.0, 3.0, 4.0], [2.0, 0.5, 9.0, 1.0]])
    x = mf.tensor(a)
    np.testing.assert_allclose(mf.quantile(x, 0.3).numpy(), np.quantile(a, 0.3))
    np.testing.assert_allclose(mf.quantile(x, mf.tensor([0.25, 0.5], dtype=mf.float64), dim=1).numpy(),
                               np.quantile(a, [0.25, 0.5], axis=1))
    for method in ("lower", "higher", "midpoint", "nearest"):
        np.testing.assert_allclose(mf.quantile(x, 0.4, interpolation=method).numpy(),
                                   np.quantile(a, 0.4, method=method))
    assert mf.histc(mf.tensor([1.0, 2, 1, 4]), bins=4, min=0, max=3).numpy().tolist() == [0.0, 2.0, 1.0, 0.0]
    m = np.array([[1.0, 1.0], [0.5, 1.0]])
    for n in (0, 1, 3, 6):
        np.testing.assert_allclose(mf.matrix_power(mf.tensor(m), n).numpy(), np.linalg.matrix_power(m, n))
    assert x.mT.shape == (4, 2) and mf.concat([x, x]).shape == (4, 4)
    g = mf.Generator().manual_seed(42)
    data = TensorDataset(mf.arange(10))
    first = [s.indices for s in random_split(data, [5, 5], generator=g)]
    again = [s.indices for s in random_split(data, [5, 5], generator=mf.Generator().manual_seed(42))]
    assert first == again and g.initial_seed() == 42


# torch 2.x's histc and histogram of _HIST_DATA (sha256 of the bytes, first 16 hex digits;
# histogram: the counts', then the edges'): torch's edges (linspace's, in the input's dtype),
# histc's interpolated bins and histogram's searched ones, so values on an edge count as torch's.
@pytest.mark.parametrize("op,args,dtype,digest", [
    ("histc", (10, 0, 0), "float32", "6e80b3a5c8073301"), ("histc", (10, 0, 0), "float64", "b2c60b70f7bcd23c"),
    ("histc", (7, -2, 3), "float32", "4aa3f863a17ff697"), ("histc", (7, -2, 3), "float64", "51849316805f2783"),
    ("histc", (100, -5.5, 5.5), "float32", "04105fd0ab1d3022"),
    ("histc", (100, -5.5, 5.5), "float64", "01b5b0944355d769"),
    ("histc", (3, 1, 1), "float32", "53db87006092241c"), ("histc", (3, 1, 1), "float64", "df7723ee3112bce6"),
    ("histc", (13, -1.25, 2.5), "float32", "5e2fb909e2d119e4"),
    ("histc", (13, -1.25, 2.5), "float64", "76ae0ed89d2cd63c"),
    ("histogram", (7,), "float32", "a46dcafa0455d43d023d61ef9c9051c8"),
    ("histogram", (7,), "float64", "c14bde8623978ab8de0949d0ff37f728"),
    ("histogram", (100,), "float32", "59222c55b0704e6aaae7c0ba7cb5a403"),
    ("histogram", (100,), "float64", "9850759a92a0dbd3d3784f204f82ffb0")])
def test_histograms_bin_as_torch(op, args, dtype, digest):
    import hashlib
    rs = np.random.RandomState(5)
    x = (rs.randn(2000) * 3).astype(np.float32)
    x[::5] = np.round(x[::5] * 4) / 4  # values on the edges
    got = getattr(mf, op)(mf.tensor(x, dtype=getattr(mf, dtype)), *args)
    parts = [got] if op == "histc" else [got.hist, got.bin_edges]
    assert "".join(hashlib.sha256(p.numpy().tobytes()).hexdigest()[:16] for p in parts) == digest


def test_bincount_sums_float32_weights_in_order_as_torch():
    import hashlib
    rs = np.random.RandomState(0)
    values, weights = rs.randint(0, 7, 5000), rs.randn(5000).astype(np.float32)
    got = mf.bincount(mf.tensor(values), mf.tensor(weights))
    assert got.dtype == mf.float32
    assert hashlib.sha256(got.numpy().tobytes()).hexdigest()[:16] == "e667acad084ef4c6"  # torch 2.x's
    empty = mf.bincount(mf.tensor(np.array([], np.int64)), mf.tensor(np.array([], np.float32)), minlength=3)
    assert empty.dtype == mf.int64 and empty.tolist() == [0, 0, 0]
