"""uint8, int8 and int16 tensors on one device, with PyTorch's semantics (the expected values
written out as torch 2 gives them): creation, NumPy round trips, casts both ways (a float
goes through int64 and wraps, as torch on x86), wrapping arithmetic, type promotion,
comparisons, bitwise ops, reductions, indexing, shape ops, where/masked_fill, printing, and
the ops that refuse them."""
import numpy as np
import pytest

import meshflow as mf

SMALL = [("uint8", np.uint8), ("int8", np.int8), ("int16", np.int16)]


def check(t, expected, dtype):
    assert t.dtype == getattr(mf, dtype), (t.dtype, dtype)
    out = t.numpy()
    assert out.dtype == np.dtype(dtype), out.dtype
    np.testing.assert_array_equal(out, np.asarray(expected))


def u8(values):
    return mf.tensor(values, dtype=mf.uint8)


def i8(values):
    return mf.tensor(values, dtype=mf.int8)


def i16(values):
    return mf.tensor(values, dtype=mf.int16)


@pytest.mark.parametrize("name,np_type", SMALL)
def test_creation_and_numpy_round_trip(name, np_type):
    dtype = getattr(mf, name)
    check(mf.tensor([1, 2, 100], dtype=dtype), [1, 2, 100], name)
    array = np.arange(12, dtype=np_type).reshape(3, 4)
    t = mf.from_numpy(array)
    check(t, array, name)
    assert t.element_size() == np.dtype(np_type).itemsize
    check(mf.tensor(array), array, name)  # the array's dtype is kept
    check(mf.zeros(2, 3, dtype=dtype), np.zeros((2, 3)), name)
    check(mf.ones(4, dtype=dtype), np.ones(4), name)
    check(mf.full((2,), 7, dtype=dtype), [7, 7], name)
    check(mf.arange(5, dtype=dtype), [0, 1, 2, 3, 4], name)
    check(mf.arange(2, 11, 3, dtype=dtype), [2, 5, 8], name)
    check(mf.zeros_like(t), np.zeros((3, 4)), name)


def test_values_out_of_range_are_refused_at_creation():
    with pytest.raises(ValueError, match="256 does not fit in uint8"):
        mf.tensor([1, 256], dtype=mf.uint8)
    with pytest.raises(ValueError, match="-129 does not fit in int8"):
        mf.tensor([-129], dtype=mf.int8)
    with pytest.raises(ValueError, match="full"):
        mf.full((2,), 300, dtype=mf.uint8)


def test_dtype_names_and_methods():
    assert mf.short == mf.int16
    assert str(mf.uint8) == "meshflow.uint8"
    x = mf.tensor([1.5, -2.5, 200.0])
    check(x.byte(), [1, 254, 200], "uint8")
    check(x.char(), [1, -2, -56], "int8")
    check(x.short(), [1, -2, 200], "int16")
    assert x.byte().type() == "meshflow.ByteTensor"
    assert x.char().type() == "meshflow.CharTensor"
    assert x.short().type() == "meshflow.ShortTensor"
    check(x.type("meshflow.ByteTensor"), [1, 254, 200], "uint8")


def test_casts_from_floats_truncate_then_wrap_as_torch():
    # torch: through int64 (truncated toward zero), then modulo 2^bits; NaN gives 0.
    x = mf.tensor([300.0, -1.0, 2.7, -2.7, float("nan"), 255.9])
    check(x.to(mf.uint8), [44, 255, 2, 254, 0, 255], "uint8")
    check(mf.tensor([300.0, -129.0, 2.7, -2.7, 1e10]).to(mf.int8), [44, 127, 2, -2, 0], "int8")
    check(mf.tensor([40000.0, -40000.0, 2.7, -2.7], dtype=mf.float64).to(mf.int16), [-25536, 25536, 2, -2], "int16")
    # float16 and bfloat16 too (through float32).
    check(mf.tensor([3.0, -1.0]).half().byte(), [3, 255], "uint8")


def test_casts_between_integers_wrap_and_to_floats_are_exact():
    check(mf.tensor([300, -1, 65535]).to(mf.uint8), [44, 255, 255], "uint8")
    check(mf.tensor([300, -1, 65535]).to(mf.int16), [300, -1, -1], "int16")
    check(u8([200, 0]).to(mf.int8), [-56, 0], "int8")
    check(i8([-1, 5]).to(mf.uint8), [255, 5], "uint8")
    check(u8([255, 1]).float(), np.array([255, 1], np.float32), "float32")
    check(i8([-128, 127]).to(mf.float64), np.array([-128, 127], np.float64), "float64")
    check(i16([-32768, 7]).long(), [-32768, 7], "int64")
    check(u8([0, 3]).bool(), [False, True], "bool")
    check(mf.tensor([True, False]).byte(), [1, 0], "uint8")


def test_arithmetic_wraps_as_torch():
    u, v = u8([250, 3, 128]), u8([251, 0, 0])
    check(u + u, [244, 6, 0], "uint8")
    check(u * u, [36, 9, 0], "uint8")
    check(u - v, [255, 3, 128], "uint8")
    check(-u, [6, 253, 128], "uint8")
    check(u + 300, [38, 47, 172], "uint8")  # the number modulo 256, as torch
    check(u - 1, [249, 2, 127], "uint8")
    check(u // u8([7, 2, 3]), [35, 1, 42], "uint8")
    check(u % 7, [5, 3, 2], "uint8")
    check(u ** 2, [36, 9, 0], "uint8")
    check(mf.maximum(u, v), [251, 3, 128], "uint8")
    check(i8([100, 50]) * 3, [44, -106], "int8")
    check(i8([-128, 5]).abs(), [-128, 5], "int8")
    check(i8([-128, 5]) // -1, [-128, -5], "int8")
    check(i16([300, -300]) * i16([300, 300]), [24464, -24464], "int16")  # 90000 mod 65536
    check(i16([32767]) + 1, [-32768], "int16")
    with pytest.raises(ValueError, match=r"\[floor_divide\] integer division by zero"):
        (u // u8([1, 0, 1])).numpy()  # raised where the value is read, as for int64
    with pytest.raises(ValueError, match="negative integer powers"):
        u ** -1


def test_type_promotion_as_torch():
    u, s, w = u8([1, 2]), i8([-1, 2]), i16([1, 2])
    assert (u + s).dtype == mf.int16
    assert mf.promote_types(mf.uint8, mf.int8) == mf.int16
    assert mf.promote_types(mf.int8, mf.uint8) == mf.int16
    assert mf.promote_types(mf.uint8, mf.int16) == mf.int16
    assert mf.promote_types(mf.int8, mf.int32) == mf.int32
    assert mf.promote_types(mf.uint8, mf.float16) == mf.float16
    assert (u + mf.tensor([1, 2])).dtype == mf.int64
    assert (u + 1).dtype == mf.uint8
    assert (u + mf.tensor(1000)).dtype == mf.uint8  # a 0-d tensor of the same category never widens
    assert (u + mf.tensor(1.5)).dtype == mf.float32
    assert (u + 2.5).dtype == mf.float32
    assert (u + mf.tensor([True, False])).dtype == mf.uint8
    assert (w + u).dtype == mf.int16
    assert (s + w).dtype == mf.int16
    assert mf.result_type(u, s) == mf.int16
    check(u + s, [0, 4], "int16")
    check(u8([250]) + i8([-128]), [122], "int16")
    check(u / u8([2, 4]), np.array([0.5, 0.5], np.float32), "float32")
    check(u + 0.5, np.array([1.5, 2.5], np.float32), "float32")
    assert mf.can_cast(mf.uint8, mf.float32) and not mf.can_cast(mf.float32, mf.uint8)


def test_comparisons_and_bitwise_ops():
    u, s = u8([250, 3, 128]), i8([-128, 5, 127])
    check(u < s, [False, True, False], "bool")  # compared as int16: 250 < -128 is false
    check(u == 3, [False, True, False], "bool")
    check(u > 200, [True, False, False], "bool")
    check(~u, [5, 252, 127], "uint8")
    check(u & 7, [2, 3, 0], "uint8")
    check(u ^ 255, [5, 252, 127], "uint8")
    check(~s, [127, -6, -128], "int8")
    check(mf.logical_not(u8([0, 2])), [True, False], "bool")


def test_unary_ops_of_floats_give_float32_as_torch():
    x = u8([0, 1, 4])
    y = mf.exp(x)
    assert y.dtype == mf.float32
    np.testing.assert_allclose(y.numpy(), np.exp([0, 1, 4]).astype(np.float32), rtol=1e-6)
    check(mf.sqrt(x), np.array([0, 1, 2], np.float32), "float32")
    check(mf.sigmoid(i8([0])), np.array([0.5], np.float32), "float32")


def test_reductions():
    u = u8([[250, 3, 128], [10, 20, 30]])
    check(u.sum(), 441, "int64")
    check(u.sum(0), [260, 23, 158], "int64")
    check(u.prod(1), [96000, 6000], "int64")
    check(u.amax(), 250, "uint8")
    check(u.max(), 250, "uint8")
    check(u.amin(1), [3, 10], "uint8")
    check(i8([[-128, 5], [127, -1]]).sum(1), [-123, 126], "int64")
    with pytest.raises(ValueError, match=r"mean\(\).*uint8"):
        u.mean()


def test_indexing_gather_and_shape_ops():
    u = u8(np.arange(12).reshape(3, 4) * 20)
    idx = mf.tensor([2, 0])
    check(u[idx], (np.arange(12).reshape(3, 4) * 20)[[2, 0]].astype(np.uint8), "uint8")
    check(u[1, 1:3], [100, 120], "uint8")
    check(mf.index_select(u, 1, idx), [[40, 0], [120, 80], [200, 160]], "uint8")
    check(mf.gather(u, 1, mf.tensor([[3], [0], [1]])), [[60], [80], [180]], "uint8")
    check(u.reshape(2, 6)[1], [120, 140, 160, 180, 200, 220], "uint8")
    check(u.t()[0], [0, 80, 160], "uint8")
    check(mf.cat([u[0], u[1]]), [0, 20, 40, 60, 80, 100, 120, 140], "uint8")
    check(mf.stack([u[0], u[2]]).sum(0), [160, 200, 240, 280], "int64")
    check(mf.flip(u[0], [0]), [60, 40, 20, 0], "uint8")
    w = u.clone()
    w[0, 0] = 255
    w[mf.tensor([1]), mf.tensor([2])] = 7
    check(w[:2], [[255, 20, 40, 60], [80, 100, 7, 140]], "uint8")
    s = i16([[-300, 5], [7, 40000 - 65536]])
    check(s[:, 1], [5, 40000 - 65536], "int16")


def test_sort_argmax_clamp_and_matmul_as_torch():
    u = u8([250, 3, 128, 3])
    values, indices = mf.sort(u, descending=True)
    check(values, [250, 128, 3, 3], "uint8")
    check(indices, [0, 2, 1, 3], "int64")
    check(u.topk(2).values, [250, 128], "uint8")
    check(u.argmax(), 0, "int64")
    check(u.clamp(5, 200), [200, 5, 128, 5], "uint8")
    check(u.cumsum(0), [250, 253, 381, 384], "int64")
    a, b = u8([[1, 2], [3, 4]]), u8([[200, 2], [3, 4]])
    check(a @ b, [[206, 10], [100, 22]], "uint8")  # wraps, as torch's CPU matmul
    check(i8([[100, 100]]) @ i8([[2], [1]]), [[44]], "int8")


def test_where_and_masked_fill():
    u = u8([250, 3, 128])
    check(mf.where(u > 100, u, u8(0)), [250, 0, 128], "uint8")
    check(u.masked_fill(u > 100, 7), [7, 3, 7], "uint8")
    check(mf.where(u > 100, u, i8([-1, -1, -1])), [250, -1, 128], "int16")


def test_printing():
    assert repr(u8([250, 3, 128])) == "tensor([250,   3, 128], dtype=meshflow.uint8)"
    assert repr(i8([-128, 5])) == "tensor([-128,    5], dtype=meshflow.int8)"
    assert repr(i16([1, 2])) == "tensor([1, 2], dtype=meshflow.int16)"


def test_ops_without_small_int_kernels_say_so():
    u = u8([[1, 2], [3, 4]])
    with pytest.raises(ValueError, match=r"\[softmax\] does not take uint8 tensors"):
        mf.softmax(u, 0)
    with pytest.raises(ValueError, match=r"\[gelu\]"):
        mf.nn.functional.gelu(u)


def test_save_load_and_pickle_keep_the_dtype(tmp_path):
    import pickle
    state = {"u": u8([250, 3, 128]), "s": i16([-3, 40000 - 65536]), "c": i8([-128])}
    mf.save(state, str(tmp_path / "ckpt"))
    loaded = mf.load(str(tmp_path / "ckpt"))
    for key, t in state.items():
        check(loaded[key], t.numpy(), t.dtype.name)
        check(pickle.loads(pickle.dumps(t)), t.numpy(), t.dtype.name)
