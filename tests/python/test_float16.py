"""float16 (half): NumPy's float16 both ways (the same bits), casts to and from every dtype
rounding as NumPy, moves by shape ops, checkpoints, type promotion; arithmetic as NumPy's
(computed in float32, rounded once; the op table is test_half.py)."""
import numpy as np
import pytest

import meshflow as mf

F16 = mf.float16


def test_numpy_float16_both_ways():
    h = np.array([[0, 1.5, -2.25], [65504, 6e-8, np.inf]], np.float16)
    t = mf.from_numpy(h)
    assert t.dtype == F16 and mf.half == F16 and mf.tensor(h).dtype == F16
    out = t.numpy()
    assert out.dtype == np.float16 and np.array_equal(out.view(np.uint16), h.view(np.uint16))
    assert mf.tensor([1.0, 2.0], dtype=mf.float16).numpy().dtype == np.float16
    assert t.type() == "meshflow.HalfTensor" and mf.tensor([1.0]).type("meshflow.HalfTensor").dtype == F16
    assert repr(mf.tensor([1.5], dtype=F16)) == "tensor([1.5000], dtype=meshflow.float16)"


def test_every_half_widens_exactly_and_rounds_back():
    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    halves = bits.view(np.float16)
    wide = mf.from_numpy(halves).float().numpy()
    np.testing.assert_array_equal(wide, halves.astype(np.float32))  # NaNs compare equal here
    back = mf.from_numpy(wide).half().numpy().view(np.uint16)
    finite = ~np.isnan(halves)
    np.testing.assert_array_equal(back[finite], bits[finite])
    assert np.isnan(back.view(np.float16)[~finite]).all()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's overflow to inf
def test_float32_rounds_to_nearest_even_as_numpy():
    rng = np.random.default_rng(0)
    raw = rng.integers(0, 2 ** 32, 200000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    edges = np.array([65504, 65519.99, 65520, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 2 ** -25, 3 * 2 ** -25, 2 ** -14,
                      -0.0, 1e-30], np.float32)
    for x in (raw[~np.isnan(raw)], edges):
        got = mf.from_numpy(x).half().numpy()
        np.testing.assert_array_equal(got.view(np.uint16), x.astype(np.float16).view(np.uint16))


@pytest.mark.parametrize("other", ["float32", "float64", "int32", "int64", "bool", "bfloat16"])
def test_casts_to_and_from_every_dtype(other):
    v = np.array([0, 1, -2, 3, 100, -7], np.float16)
    x = mf.from_numpy(v)
    y = x.to(getattr(mf, other))
    assert y.dtype.name == other
    np.testing.assert_array_equal(y.numpy(), v.astype(np.float32).astype(np.bool_ if other == "bool" else
                                                                         np.float32 if other == "bfloat16" else other))
    z = y.to(F16)
    assert z.dtype == F16
    np.testing.assert_array_equal(z.numpy(), v.astype(bool).astype(np.float16) if other == "bool" else v)


def test_shape_ops_move_it_and_arithmetic_rounds_as_numpy():
    v = np.arange(12, dtype=np.float16).reshape(3, 4)
    x = mf.from_numpy(v)
    np.testing.assert_array_equal(x.T.numpy(), v.T)
    np.testing.assert_array_equal(x[1:, ::2].numpy(), v[1:, ::2])
    np.testing.assert_array_equal(mf.cat([x, x], 1).numpy(), np.concatenate([v, v], 1))
    np.testing.assert_array_equal(x.reshape(2, 6).numpy(), v.reshape(2, 6))
    np.testing.assert_array_equal((x + x * x).numpy(), v + v * v)
    np.testing.assert_array_equal(x.exp().numpy(), np.exp(v))


def test_promotion_with_float16():
    assert mf.promote_types(F16, mf.bfloat16) == mf.float32
    assert mf.promote_types(F16, mf.float32) == mf.float32 and mf.promote_types(F16, mf.int64) == F16
    x = mf.from_numpy(np.ones(2, np.float16))
    assert mf.result_type(x, 2.5) == F16 and mf.result_type(x, mf.tensor(1.0, dtype=mf.float64)) == F16
    assert mf.result_type(x, mf.ones(2, dtype=mf.float64)) == mf.float64


def test_checkpoint_keeps_float16_bits(tmp_path):
    v = np.array([[1.5, -0.0], [np.inf, 6e-8]], np.float16)
    mf.save({"w": mf.from_numpy(v)}, str(tmp_path / "ckpt"))
    back = mf.load(str(tmp_path / "ckpt"))["w"]
    assert back.dtype == F16 and np.array_equal(back.numpy().view(np.uint16), v.view(np.uint16))
