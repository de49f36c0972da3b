"""The bool dtype and PyTorch's type promotion on local tensors, against NumPy: the
result_type table (expected dtypes written out as torch gives them), every binary op's
dtype and values on mixed operands, bool's NumPy bridge, logical, bitwise and predicate
ops, where, masked_fill, any/all, sum and mean, Tensor.bool/type/__format__, gradients
through bool masks, checkpoints of bool tensors, and errors."""
import numpy as np
import pytest

import meshflow as mf
from gradcheck import check_gradients

DTYPES = ["bool", "int32", "int64", "bfloat16", "float32", "float64"]
# Operand kinds: T = a tensor with dims, Z = a 0-d tensor, N = a Python number.
COLUMNS = [("T", d) for d in DTYPES] + [("Z", d) for d in DTYPES] + [("N", True), ("N", 2), ("N", 2.5)]
# torch.result_type(tensor of the row's dtype with dims, column operand), as torch 2 gives it.
TABLE = {
    "bool": ["bool", "int32", "int64", "bfloat16", "float32", "float64",
             "bool", "int32", "int64", "bfloat16", "float32", "float64", "bool", "int64", "float32"],
    "int32": ["int32", "int32", "int64", "bfloat16", "float32", "float64",
              "int32", "int32", "int32", "bfloat16", "float32", "float64", "int32", "int32", "float32"],
    "int64": ["int64", "int64", "int64", "bfloat16", "float32", "float64",
              "int64", "int64", "int64", "bfloat16", "float32", "float64", "int64", "int64", "float32"],
    "bfloat16": ["bfloat16", "bfloat16", "bfloat16", "bfloat16", "float32", "float64",
                 "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16", "bfloat16",
                 "bfloat16"],
    "float32": ["float32", "float32", "float32", "float32", "float32", "float64",
                "float32", "float32", "float32", "float32", "float32", "float32", "float32", "float32", "float32"],
    "float64": ["float64"] * 15,
}
# torch.result_type(0-d tensor of the row's dtype, column operand) for the 0-d and number columns.
ZERO_DIM_TABLE = {
    "bool": ["bool", "int32", "int64", "bfloat16", "float32", "float64", "bool", "int64", "float32"],
    "int32": ["int32", "int32", "int64", "bfloat16", "float32", "float64", "int32", "int32", "float32"],
    "int64": ["int64", "int64", "int64", "bfloat16", "float32", "float64", "int64", "int64", "float32"],
    "bfloat16": ["bfloat16", "bfloat16", "bfloat16", "bfloat16", "float32", "float64", "bfloat16", "bfloat16",
                 "bfloat16"],
    "float32": ["float32", "float32", "float32", "float32", "float32", "float64", "float32", "float32", "float32"],
    "float64": ["float64"] * 9,
}
NUMPY = {"bool": np.bool_, "int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}


def operand(kind, which, seed=0):
    """(meshflow operand, NumPy operand) of a kind: a tensor [2, 3], a 0-d tensor or a number."""
    if kind == "N":
        return which, which
    rng = np.random.default_rng(seed)
    shape = (2, 3) if kind == "T" else ()
    if which == "bool":
        values = rng.integers(0, 2, shape).astype(bool)
    else:
        values = rng.integers(1, 5, shape).astype(NUMPY.get(which, np.float32))
    values = np.asarray(values)
    return mf.tensor(values, dtype=getattr(mf, which) if which != "bool" else mf.bool), values


def check(result, expected, dtype=None):
    expected = np.asarray(expected)
    assert result.dtype.name == (dtype or expected.dtype.name), (result.dtype, dtype, expected.dtype)
    assert result.shape == expected.shape
    np.testing.assert_allclose(result.numpy().astype(np.float64), expected.astype(np.float64), rtol=1e-6)


@pytest.mark.parametrize("row", DTYPES)
def test_result_type_table(row):
    x, _ = operand("T", row)
    for (kind, which), expected in zip(COLUMNS, TABLE[row]):
        other, _ = operand(kind, which)
        assert mf.result_type(x, other).name == expected, (row, kind, which)
        if kind != "N":
            assert mf.result_type(other, x) == mf.result_type(x, other)
    z, _ = operand("Z", row)
    for (kind, which), expected in zip(COLUMNS[len(DTYPES):], ZERO_DIM_TABLE[row]):
        assert mf.result_type(z, operand(kind, which)[0]).name == expected, (row, kind, which)


def test_promote_types_and_defaults():
    assert mf.promote_types(mf.int32, mf.int64) == mf.int64
    assert mf.promote_types(mf.float32, mf.float64) == mf.float64
    assert mf.promote_types(mf.bool, mf.int32) == mf.int32
    assert mf.promote_types(mf.bfloat16, mf.float32) == mf.float32
    assert mf.promote_types(mf.bfloat16, mf.int64) == mf.bfloat16
    assert mf.promote_types(mf.int64, mf.float32) == mf.float32
    assert mf.get_default_dtype() == mf.float32
    assert mf.can_cast(mf.int32, mf.float32) and not mf.can_cast(mf.float32, mf.int64)
    assert mf.can_cast(mf.bool, mf.int32) and not mf.can_cast(mf.int32, mf.bool)


ARITHMETIC = {
    "add": (mf.add, np.add), "sub": (mf.sub, np.subtract), "mul": (mf.mul, np.multiply),
    "maximum": (mf.maximum, np.maximum), "minimum": (mf.minimum, np.minimum),
    "floor_divide": (mf.floor_divide, np.floor_divide), "remainder": (mf.remainder, np.remainder),
    "pow": (mf.pow, np.power),
}
NO_BOOL = {"sub", "floor_divide", "remainder", "pow"}  # torch raises on two bools (sub on any bool operand)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's float x / 0
@pytest.mark.parametrize("name", list(ARITHMETIC))
@pytest.mark.parametrize("row", [d for d in DTYPES if d != "bfloat16"])
def test_binary_ops_compute_in_the_promoted_dtype(name, row):
    f, reference = ARITHMETIC[name]
    x, a = operand("T", row, seed=1)
    for (kind, which), expected in zip(COLUMNS, TABLE[row]):
        if which == "bfloat16":
            continue  # a storage type: arithmetic refuses it
        for swapped in (False, True):
            other, b = operand(kind, which, seed=2)
            args, np_args = ((other, x), (b, a)) if swapped else ((x, other), (a, b))
            bool_operand = row == "bool" or which == "bool" or which is True
            if (expected == "bool" and name in NO_BOOL) or (name == "sub" and bool_operand):
                with pytest.raises(NotImplementedError, match="bool"):
                    f(*args)
                continue
            np_args = [np.asarray(v).astype(NUMPY[expected]) for v in np_args]
            if name in ("floor_divide", "remainder") and expected != "float32" and not np_args[1].all():
                continue  # an integer division by zero, an error (test_ops_elementwise.py)
            check(f(*args), reference(*np_args).astype(NUMPY[expected]), expected)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's x / 0
@pytest.mark.parametrize("row", [d for d in DTYPES if d != "bfloat16"])
def test_division_and_comparisons(row):
    x, a = operand("T", row, seed=1)
    for (kind, which), expected in zip(COLUMNS, TABLE[row]):
        if which == "bfloat16":
            continue
        other, b = operand(kind, which, seed=2)
        quotient = expected if expected in ("float32", "float64") else "float32"  # true division, as torch
        check(x / other, np.asarray(a, NUMPY[quotient]) / np.asarray(b, NUMPY[quotient]), quotient)
        check(other / x, np.asarray(b, NUMPY[quotient]) / np.asarray(a, NUMPY[quotient]), quotient)
        for f, g in ((mf.eq, np.equal), (mf.ne, np.not_equal), (mf.lt, np.less), (mf.le, np.less_equal),
                     (mf.gt, np.greater), (mf.ge, np.greater_equal)):
            common = [np.asarray(v).astype(NUMPY[expected]) for v in (a, b)]
            check(f(x, other), g(*common), "bool")
        cond = mf.tensor(np.array([[True, False, True], [False, True, False]]))
        where_dtype = mf.result_type(x, other).name
        check(mf.where(cond, x, other), np.where(cond.numpy(), a, b).astype(NUMPY[where_dtype]), where_dtype)


def test_bool_through_numpy_and_back():
    b = mf.tensor([True, False, True])
    assert b.dtype == mf.bool and b.numpy().dtype == np.bool_ and b.tolist() == [True, False, True]
    assert mf.tensor(True).dtype == mf.bool and mf.tensor(True).item() is True
    assert mf.from_numpy(np.array([[False], [True]])).dtype == mf.bool
    assert mf.tensor([1, 0, 2], dtype=mf.bool).tolist() == [True, False, True]
    assert mf.tensor(np.zeros(3, np.float32), dtype="bool").tolist() == [False] * 3
    assert repr(b) == "tensor([ True, False,  True])"
    assert mf.dtype("bool") == mf.bool and repr(mf.bool) == "meshflow.bool"
    assert bool(mf.tensor([True])) and not bool(mf.tensor(False))
    assert mf.zeros(2, dtype=mf.bool).tolist() == [False, False] and mf.ones(2, dtype=mf.bool).tolist() == [True] * 2
    assert mf.full((2,), 3, dtype=mf.bool).tolist() == [True, True]


@pytest.mark.parametrize("source", ["int32", "int64", "float32", "float64", "bfloat16"])
def test_casts_to_and_from_bool(source):
    values = np.array([0, 1, -2, 0.5, -0.0, np.nan, np.inf], np.float64)
    if source in ("int32", "int64"):
        values = np.array([0, 1, -2, 7, 0, -1, 3])
    x = mf.tensor(values, dtype=getattr(mf, source))
    np.testing.assert_array_equal(x.bool().numpy(), values.astype(bool))  # nonzero (NaN too) is true
    b = mf.tensor([True, False])
    for target in (source, "int32", "float64"):
        t = b.to(getattr(mf, target))
        assert t.dtype.name == target and t.numpy().tolist() == [1, 0]


LOGICAL = {"logical_and": np.logical_and, "logical_or": np.logical_or, "logical_xor": np.logical_xor}
BITWISE = {"bitwise_and": (np.bitwise_and, lambda a, b: a & b), "bitwise_or": (np.bitwise_or, lambda a, b: a | b),
           "bitwise_xor": (np.bitwise_xor, lambda a, b: a ^ b)}


@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float32", "float64"])
def test_logical_ops_and_predicates(dtype):
    a = np.array([[0, 1, -2], [3, 0, 0]]).astype(NUMPY[dtype])
    b = np.array([1, 0, 5]).astype(NUMPY[dtype])
    x, y = mf.tensor(a), mf.tensor(b)
    for name, reference in LOGICAL.items():
        check(getattr(mf, name)(x, y), reference(a, b))
        check(getattr(x, name)(y), reference(a, b))
        check(getattr(mf, name)(x, mf.tensor(b.astype(np.float64))), reference(a, b))  # mixed dtypes
    check(mf.logical_not(x), np.logical_not(a))
    special = np.array([1.0, np.nan, np.inf, -np.inf], np.float64) if dtype in ("float32", "float64") else b
    s = mf.tensor(np.asarray(special, NUMPY[dtype]))
    check(mf.isnan(s), np.isnan(np.asarray(special, np.float64)))
    check(s.isinf(), np.isinf(np.asarray(special, np.float64)))
    check(mf.isfinite(s), np.isfinite(np.asarray(special, np.float64)))


@pytest.mark.parametrize("dtype", ["bool", "int32", "int64"])
def test_bitwise_ops_and_operators(dtype):
    a = np.array([[12, -1, 0], [5, 3, 8]]).astype(NUMPY[dtype])
    b = np.array([10, 6, -3]).astype(NUMPY[dtype])
    x, y = mf.tensor(a), mf.tensor(b)
    for name, (reference, operator) in BITWISE.items():
        check(getattr(mf, name)(x, y), reference(a, b))
        check(operator(x, y), reference(a, b))
        check(operator(x, True), reference(a, np.asarray(True).astype(NUMPY[dtype])))
        check(operator(True, y), reference(np.asarray(True).astype(NUMPY[dtype]), b))
    check(~x, np.invert(a))
    check(mf.bitwise_not(y), np.invert(b))
    # bool & int promotes to the int; an int number beside a bool tensor is int64.
    check(mf.tensor([True, False]) & mf.tensor(np.array([3, 3], np.int32)), np.array([1, 0], np.int32))
    check(mf.tensor([True, False]) | 2, np.array([3, 2], np.int64))


def test_bools_in_arithmetic_follow_torch():
    b, c = mf.tensor([True, False, True]), mf.tensor([True, True, False])
    check(b + c, np.array([True, True, True]))  # or
    check(b * c, np.array([True, False, False]))  # and
    check(mf.maximum(b, c), np.array([True, True, True]))
    check(mf.minimum(b, c), np.array([True, False, False]))
    check(b + True, np.array([True, True, True]))
    check(b + 1, np.array([2, 1, 2], np.int64))
    check(b * 2.5, np.array([2.5, 0, 2.5], np.float32))
    check(b / c, np.array([1, 0, np.inf], np.float32))
    check(b ** 2, np.array([1, 0, 1], np.int64))
    check(2 ** b, np.array([2, 1, 2], np.int64))
    check(mf.exp(b), np.exp(np.array([1, 0, 1], np.float32)))
    check(b.sum(), np.array(2, np.int64))
    for f in (lambda: b - c, lambda: True - b, lambda: b // c, lambda: b % c, lambda: b ** c):
        with pytest.raises(NotImplementedError, match="bool"):
            f()
    with pytest.raises(ValueError, match=r"\[neg\] does not take bool tensors"):
        -b


def test_any_all():
    a = np.array([[0, 1, 0], [0, 0, 0], [2, 3, 1]], np.int64)
    x = mf.tensor(a)
    for dim in (None, 0, 1, -1, (0, 1)):
        for keepdim in (False, True):
            axis = tuple(dim) if isinstance(dim, tuple) else dim
            check(mf.any(x, dim, keepdim), np.any(a != 0, axis=axis, keepdims=keepdim))
            check(x.all(dim, keepdim=keepdim), np.all(a != 0, axis=axis, keepdims=keepdim))
    check(mf.tensor([0.0, np.nan]).any(), np.array(True))
    empty = mf.zeros((0, 3))
    check(empty.any(), np.array(False))
    check(empty.all(), np.array(True))
    check(empty.any(0), np.zeros(3, bool))
    check(empty.all(0), np.ones(3, bool))
    check(empty.all(1), np.ones(0, bool))


def test_masked_fill():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    mask = np.array([True, False, True])
    x = mf.tensor(a)
    check(x.masked_fill(mf.tensor(mask), -1.5), np.where(mask, np.float32(-1.5), a))
    check(mf.masked_fill(x, mf.tensor(mask), mf.tensor(7.0)), np.where(mask, np.float32(7), a))
    i = mf.tensor(np.array([1, 2], np.int32))
    check(i.masked_fill(mf.tensor([True, False]), 2.5), np.array([2, 2], np.int32))  # taken in input's dtype
    b = mf.tensor([True, True])
    check(b.masked_fill(mf.tensor([False, True]), False), np.array([True, False]))
    with pytest.raises(RuntimeError, match="masked_fill expected condition to be a boolean tensor"):
        x.masked_fill(mf.tensor(np.ones(3, np.float32)), 0)
    with pytest.raises(RuntimeError, match="only supports a 0-dimensional value tensor"):
        x.masked_fill(mf.tensor(mask), mf.tensor([1.0]))


def test_gradients_through_bool_masks():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    check_gradients(lambda x, y: mf.where(x > y, x * y, x - y), [a, b])
    check_gradients(lambda x: x.masked_fill(x > 0.3, 0.0) * 2, [a])
    check_gradients(lambda x, v: x.masked_fill(x < 0, v), [a, np.array(0.5)])
    check_gradients(lambda x: mf.relu(x) + mf.maximum(x, 0.1 * x) + x.abs(), [a])


def test_sum_mean_and_their_dtypes():
    i = mf.tensor(np.array([[1, 2], [3, 4]], np.int32))
    check(i.sum(), np.array(10, np.int64))
    check(i.sum(1), np.array([3, 7], np.int64))
    check(i.sum(dtype=mf.float64), np.array(10, np.float64))
    check(mf.tensor([True, True, False]).sum(0, keepdim=True), np.array([2], np.int64))
    check(i.mean(dtype=mf.float32), np.array(2.5, np.float32))
    for x in (i, mf.tensor([True])):
        with pytest.raises(RuntimeError, match=r"mean\(\): could not infer output dtype"):
            x.mean()


@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float32", "float64"])
def test_prod(dtype):
    a = np.array([[1, -2, 3], [2, 0, -1], [1, 1, 2]]).astype(NUMPY[dtype])
    x = mf.tensor(a)
    out = NUMPY[dtype] if dtype.startswith("float") else np.int64
    for dim in (None, 0, 1, -1):
        for keepdim in (False, True):
            check(x.prod(dim, keepdim), np.prod(a, axis=dim, keepdims=keepdim).astype(out))
    check(mf.prod(x, dtype=mf.float64), np.prod(a.astype(np.float64)))
    check(mf.zeros((0, 2)).prod(0), np.ones(2, np.float32))


def test_prod_gradient_with_and_without_zeros():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 5))
    a[1, 2] = 0  # one zero in row 1
    a[2, 0] = a[2, 3] = 0  # two in row 2
    for dim in (None, 0, 1):
        check_gradients(lambda x: mf.prod(x, dim), [a])
    check_gradients(lambda x: x.prod(1, keepdim=True) * 2, [rng.standard_normal((3, 4))])


def test_type_format_and_methods():
    x = mf.tensor([1.0, 2.0])
    assert x.type() == "meshflow.FloatTensor"
    assert mf.tensor([1, 2]).type() == "meshflow.LongTensor" and mf.tensor([True]).type() == "meshflow.BoolTensor"
    assert x.type(mf.int32).dtype == mf.int32 and x.type("torch.DoubleTensor").dtype == mf.float64
    assert x.type("meshflow.BoolTensor").tolist() == [True, True]
    with pytest.raises(ValueError, match="unknown type name"):
        x.type("meshflow.ComplexTensor")
    assert f"{mf.tensor(1.23456):.3f}" == "1.235" and f"{mf.tensor(True)}" == "True"
    assert f"{mf.tensor(7):>4}" == "   7"
    assert f"{x}" == str(x)
    with pytest.raises(TypeError):
        f"{x:.3f}"


def test_checkpoint_keeps_bool_tensors(tmp_path):
    state = {"mask": mf.tensor([[True, False], [False, True]]), "empty": mf.zeros((0, 2), dtype=mf.bool),
             "scalar": mf.tensor(True)}
    mf.save(state, str(tmp_path / "ckpt"))
    back = mf.load(str(tmp_path / "ckpt"))
    for key, value in state.items():
        assert back[key].dtype == mf.bool and back[key].shape == value.shape
        np.testing.assert_array_equal(back[key].numpy(), value.numpy())


@pytest.mark.parametrize("fusion", [True, False])
def test_graph_mode_runs_bool_ops(fusion):
    class Masks(mf.nn.Graph):
        def build(self, x, y):
            m = (x > 0) & (y < 1)
            return mf.where(m, x * 2, y) + 1, m, m.any(1), (~m).sum(), x.masked_fill(m, 0.5), (x > y).int() + 1

    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((6, 5)).astype(np.float32), rng.standard_normal((6, 5)).astype(np.float32)
    graph = Masks()
    graph.config.enable_fusion(fusion)
    m = (a > 0) & (b < 1)
    expected = [np.where(m, a * 2, b) + 1, m, m.any(1), np.sum(~m).astype(np.int64), np.where(m, np.float32(0.5), a),
                (a > b).astype(np.int32) + 1]
    for _ in range(2):  # traced, then run compiled
        for got, want in zip(graph(mf.tensor(a), mf.tensor(b)), expected):
            check(got, want)
