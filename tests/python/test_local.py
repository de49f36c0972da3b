"""Single-process tests (a world of 1): local tensors, dtypes, SBP values, placements, global
tensors on [0]. The launcher's tests are in test_launch.py.
"""
import numpy as np
import pytest

import meshflow as mf
from jobs import PYTHON, run

S, B, P, PMAX, PMIN = mf.sbp.split, mf.sbp.broadcast, mf.sbp.partial_sum, mf.sbp.partial_max, mf.sbp.partial_min
DTYPES = [(mf.float32, np.float32), (mf.float64, np.float64), (mf.int32, np.int32), (mf.int64, np.int64)]


# ---------------------------------------------------------------------------------------------
# Importing starts nothing.

def test_import_does_not_start_mpi():
    code, out = run([PYTHON, "-c", "import meshflow; print(meshflow._C.initialized())"], timeout=60)
    assert code == 0, out
    assert out.strip() == "False"


def test_first_use_starts_mpi_in_process():
    code, out = run([PYTHON, "-c", "import meshflow as mf; print(mf.env.get_rank(), mf.env.get_world_size(), "
                     "mf._C.initialized())"], timeout=60)
    assert code == 0, out
    assert out.split()[-3:] == ["0", "1", "True"]


# ---------------------------------------------------------------------------------------------
# Local tensors.

@pytest.mark.parametrize("mf_dtype, np_dtype", DTYPES, ids=lambda d: getattr(d, "name", None))
def test_local_round_trip(mf_dtype, np_dtype):
    array = (np.arange(12) - 5).astype(np_dtype).reshape(3, 4)
    t = mf.tensor(array)
    assert not t.is_global and t.is_local
    assert t.dtype == mf_dtype and t.shape == (3, 4)
    out = t.numpy()
    assert out.dtype == np_dtype
    np.testing.assert_array_equal(out, array)
    np.testing.assert_array_equal(mf.tensor(array.tolist(), dtype=mf_dtype).numpy(), array)
    np.testing.assert_array_equal(mf.from_numpy(array).numpy(), array)


def test_numpy_shares_the_tensor_memory():
    # As torch's (tests/python/test_numpy_sharing.py has the rest).
    t = mf.tensor(np.zeros((2, 3), np.float32))
    view = t.to_local().numpy()
    assert np.shares_memory(view, t.numpy())
    view[1, 2] = 7
    assert t.numpy()[1, 2] == 7


def test_numpy_arrays_are_row_major_in_bytes_of_their_dtype():
    # The strides are meshflow's, not derived from the dtype's itemsize by pybind11, which reads
    # it at NumPy 1's offset: under NumPy 2 every element read the first.
    for dtype in (mf.float32, mf.float64, mf.float16, mf.int64, mf.int32, mf.int16, mf.int8, mf.uint8, mf.bool,
                  mf.complex64, mf.bfloat16):
        t = (mf.arange(24).reshape(2, 3, 4) % 5).to(dtype)
        for array in (t.numpy(), t._numpy()):
            assert array.strides == (12 * array.itemsize, 4 * array.itemsize, array.itemsize)
            np.testing.assert_array_equal(array, (np.arange(24).reshape(2, 3, 4) % 5).astype(array.dtype))
    bits = mf.ones(2, 3, dtype=mf.bfloat16)._impl.local_tensor.bits()  # what checkpoints save
    assert bits.strides == (6, 2) and (bits == 0x3F80).all()


def test_from_numpy_shares_the_array():
    array = np.zeros((2, 3), np.int64)
    t = mf.from_numpy(array)
    array[0, 1] = 5
    assert t.numpy()[0, 1] == 5 and t.dtype == mf.int64


def test_from_numpy_copies_any_layout_and_refuses_what_is_not_an_array():
    strided = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]
    np.testing.assert_array_equal(mf.from_numpy(strided).numpy(), strided)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        mf.from_numpy([1.0, 2.0])


def test_tensor_copies():
    array = np.zeros(4, np.float64)
    t = mf.tensor(array)
    assert not np.shares_memory(t.numpy(), array)
    array[0] = 1
    assert t.numpy()[0] == 0


@pytest.mark.parametrize("bad", [np.uint16, np.longdouble, np.uint32])
def test_unsupported_dtype(bad):
    name = np.dtype(bad).name
    pattern = f"unsupported dtype '{name}'.*float32, float64, int32, int64"
    with pytest.raises(ValueError, match=pattern):
        mf.tensor(np.zeros(3, bad))
    with pytest.raises(ValueError, match=pattern):
        mf.from_numpy(np.zeros(3, bad))
    with pytest.raises(ValueError, match=pattern):
        mf.tensor([1, 2], dtype=bad)


def test_unsupported_python_values():
    with pytest.raises(ValueError, match="unsupported dtype 'float128'"):
        mf.tensor(np.zeros(2, np.longdouble))


@pytest.mark.parametrize("data, expected", [
    ([1.5, 2.0], mf.float32),
    ([[1, 2], [3, 4]], mf.int64),
    ([1, 2.5], mf.float32),
    (3.0, mf.float32),
    (7, mf.int64),
    (np.zeros(2, np.float64), mf.float64),  # NumPy arrays keep their dtype
    (np.zeros(2, np.int32), mf.int32),
], ids=["floats", "ints", "mixed", "float scalar", "int scalar", "float64 array", "int32 array"])
def test_dtype_defaults(data, expected):
    assert mf.tensor(data).dtype == expected


@pytest.mark.parametrize("dtype", [mf.float64, np.float64, "float64"], ids=["meshflow", "numpy", "name"])
def test_dtype_argument(dtype):
    t = mf.tensor([1, 2, 3], dtype=dtype)
    assert t.dtype == mf.float64 and t.numpy().dtype == np.float64


def test_dtype_values():
    assert repr(mf.float32) == "meshflow.float32"
    assert mf.float32 != mf.float64
    assert len({mf.float32, mf.float64, mf.int32, mf.int64, mf.float32}) == 4


# ---------------------------------------------------------------------------------------------
# SBP values.

def test_sbp_equality():
    assert S(0) == S(0) == S(dim=0) and S(0) != S(1)
    assert B == mf.sbp.broadcast and P == mf.sbp.partial_sum
    distinct = [S(0), S(1), B, P, PMAX, PMIN]
    for i, a in enumerate(distinct):
        for j, b in enumerate(distinct):
            assert (a == b) == (i == j), (a, b)
    assert S(0) != 0 and B != "B"


def test_sbp_hashing():
    assert hash(S(2)) == hash(S(2))
    assert len({S(0), S(0), S(1), B, B, P, PMAX, PMIN, PMIN}) == 6
    names = {S(0): "split 0", B: "broadcast", P: "sum"}
    assert names[S(0)] == "split 0" and names[mf.sbp.broadcast] == "broadcast" and names[mf.sbp.partial_sum] == "sum"
    assert {(S(0), B): 1}[(S(0), B)] == 1


def test_sbp_repr():
    assert [repr(s) for s in (S(0), S(dim=3), B, P, PMAX, PMIN)] == ["S(0)", "S(3)", "B", "P", "P(max)", "P(min)"]


def test_sbp_properties():
    assert S(1).is_split and S(1).dim == 1 and not S(1).is_partial
    assert B.is_broadcast and B.dim is None
    assert P.is_partial and PMAX.is_partial and PMIN.is_partial and not B.is_partial


def test_sbp_split_errors():
    with pytest.raises(ValueError, match="negative"):
        S(-1)
    with pytest.raises(TypeError, match="int"):
        S(0.5)
    with pytest.raises(TypeError, match="int"):
        S(True)


# ---------------------------------------------------------------------------------------------
# Placements (the world has one rank here).

def test_placement_properties():
    p = mf.placement("cpu", ranks=[0])
    assert (p.type, p.ranks, p.hierarchy) == ("cpu", [0], [1])
    q = mf.placement(type="cpu", ranks=[[0]])
    assert (q.type, q.ranks, q.hierarchy) == ("cpu", [[0]], [1, 1])
    assert mf.placement(ranks=[0]).type == "cpu"


def test_placement_equality_and_hash():
    p = mf.placement("cpu", ranks=[0])
    assert p == mf.placement(type="cpu", ranks=[0])
    assert hash(p) == hash(mf.placement("cpu", ranks=[0]))
    assert p != mf.placement("cpu", ranks=[[0]])  # same ranks, other hierarchy
    assert p != "cpu" and p != [0]
    assert len({p, mf.placement("cpu", ranks=[0]), mf.placement("cpu", ranks=[[0]])}) == 2
    assert {p: "one"}[mf.placement("cpu", ranks=[0])] == "one"


def test_placement_repr():
    assert repr(mf.placement("cpu", ranks=[0])) == 'placement(type="cpu", ranks=[0])'
    assert "ranks=[[0]]" in repr(mf.placement("cpu", ranks=[[0]]))


@pytest.mark.parametrize("kwargs, message", [
    (dict(ranks=[[0], [0, 1]]), "ragged"),
    (dict(ranks=[0, 0]), "rank 0 is repeated"),
    (dict(ranks=[0, 1]), "rank 1 is outside the world"),
    (dict(ranks=[[0, 1], [2, 3]]), "outside the world"),
    (dict(type="xla", ranks=[0]), "'xla' is not a registered device type; registered: cpu, testdev"),
    (dict(type="tpu", ranks=[0]), "'tpu' is not a registered device type"),
    (dict(ranks=[]), "non-empty"),
    (dict(), "ranks are required"),
], ids=["ragged", "repeated", "outside world", "outside world 2-d", "xla", "tpu", "empty", "no ranks"])
def test_placement_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        mf.placement(**kwargs)


# ---------------------------------------------------------------------------------------------
# Global tensors on placement [0]: every SBP holds the whole value.

@pytest.mark.parametrize("sbp", [S(0), S(1), B, P, PMAX, PMIN], ids=repr)
@pytest.mark.parametrize("mf_dtype, np_dtype", DTYPES, ids=lambda d: getattr(d, "name", None))
def test_global_on_one_rank(sbp, mf_dtype, np_dtype):
    p = mf.placement("cpu", ranks=[0])
    value = (np.arange(12) - 6).astype(np_dtype).reshape(3, 4)
    for g in (mf.tensor(value, placement=p, sbp=sbp), mf.tensor(value).to_global(placement=p, sbp=(sbp,))):
        assert g.is_global and g.shape == (3, 4) and g.dtype == mf_dtype
        assert g.sbp == (sbp,) and g.placement == p
        np.testing.assert_array_equal(g.numpy(), value)
        np.testing.assert_array_equal(g.to_local().numpy(), value)
        for dst in (S(0), S(1), B, P, PMAX, PMIN):
            h = g.to_global(sbp=dst)
            assert h.sbp == (dst,)
            np.testing.assert_array_equal(h.numpy(), value)


def test_global_property_errors_on_local_tensors():
    t = mf.tensor([1.0])
    with pytest.raises(ValueError, match="only defined for global tensors"):
        t.sbp
    with pytest.raises(ValueError, match="only defined for global tensors"):
        t.placement


def test_global_errors():
    p = mf.placement("cpu", ranks=[0])
    value = np.zeros((2, 3), np.float32)
    with pytest.raises(ValueError, match="has 2 entries.*one sbp per axis"):
        mf.tensor(value, placement=p, sbp=(S(0), B))
    with pytest.raises(ValueError, match="has 2 entries.*one sbp per axis"):
        mf.tensor(value).to_global(placement=p, sbp=(B, B))
    with pytest.raises(ValueError, match=r"S\(2\) splits dim 2 but the tensor has 2 dims"):
        mf.tensor(value, placement=p, sbp=S(2))
    with pytest.raises(ValueError, match=r"S\(2\).*2 dims"):
        mf.tensor(value).to_global(placement=p, sbp=S(2))
    with pytest.raises(ValueError, match=r"S\(5\).*2 dims"):
        mf.tensor(value, placement=p, sbp=B).to_global(sbp=S(5))
    with pytest.raises(ValueError, match="needs both placement and sbp"):
        mf.tensor(value).to_global(placement=p)
    with pytest.raises(ValueError, match="needs both placement and sbp"):
        mf.tensor(value).to_global(sbp=B)
    with pytest.raises(ValueError, match="needs both placement and sbp"):
        mf.tensor(value, sbp=B)
    with pytest.raises(TypeError, match="placement"):
        mf.tensor(value).to_global(placement=[0], sbp=B)
    with pytest.raises(TypeError, match="sbp entries"):
        mf.tensor(value).to_global(placement=p, sbp="B")


def test_non_native_byte_order():
    big_endian = np.arange(3, dtype=">f4")
    np.testing.assert_array_equal(mf.tensor(big_endian).numpy(), [0, 1, 2])
    with pytest.raises(ValueError, match="non-native byte order"):
        mf.from_numpy(big_endian)


def test_numpy_of_a_global_tensor_is_a_copy():
    g = mf.tensor(np.arange(3.0), placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.broadcast)
    g.numpy()[0] = 100
    assert g.numpy()[0] == 0


@pytest.mark.parametrize("sbp", [S(1), B, P], ids=repr)
def test_repr_shows_the_values_of_global_tensors_too(sbp):
    # As OneFlow's: a global tensor's repr reads its logical value (collectively; see
    # distributed/test_global.py), then names its layout.
    x = mf.tensor([[1.5, -2.0]])
    assert repr(x) == "tensor([[ 1.5000, -2.0000]])"  # as PyTorch's: the default dtype unnamed
    assert repr(x.double().requires_grad_()) == \
        "tensor([[ 1.5000, -2.0000]], dtype=meshflow.float64, requires_grad=True)"
    assert repr(mf.tensor([1.0, 2.0])) == "tensor([1., 2.])" and repr(mf.tensor([1e-5, 1.0])) == \
        "tensor([1.0000e-05, 1.0000e+00])"
    g = mf.tensor([[1.5, -2.0]], placement=mf.placement("cpu", ranks=[0]), sbp=sbp)
    # Suffixes past the line width (80) go on lines of their own, as PyTorch's and OneFlow's.
    assert repr(g) == (f'tensor([[ 1.5000, -2.0000]], placement=placement(type="cpu", ranks=[0]),\n'
                       f'       sbp=({sbp!r},), dtype=meshflow.float32)')
    assert str(g) == repr(g)
