"""Tensor's operators and reductions in C (_C.tensor_method, python/op_calls.h): `a + b`,
`a * b`, `a - b`, a number with + and *, x.sum() / amax() / amin() go from the operator
straight to C++, and every call they do not take goes to the Python method each stands for.
Either way the result is the one the Python method gives: compared here call by call with
the Python method itself (its __wrapped__), over the operands each path takes."""
import inspect
import operator

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn

F32 = np.array([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]], np.float32)


def same(got, want):
    assert type(got) is type(want) is mf.Tensor
    assert got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def operands():
    """(left, right) pairs of every kind the methods meet."""
    x = mf.tensor(F32)
    return [
        (x, mf.tensor(F32 * 2)),                       # tensors: straight to C++
        (x, mf.tensor(F32[0])),                        # broadcast
        (x, 2.5), (x, 3), (2.5, x), (-4, x),           # numbers, both sides
        (mf.tensor([[1, 2, 3]]), 2.5),                 # an integer tensor and a float: the fallback promotes
        (mf.tensor([[1, 2, 3]]), mf.tensor(F32)),      # dtypes C++ refuses: promoted by the fallback
        (mf.tensor(F32, dtype=mf.float64), x),
        # categories that differ: the lower cast to the higher's dtype in C, whichever has dims
        (x, mf.tensor([True, False, True])), (mf.tensor([[True], [False]]), x),
        (mf.tensor([[1, 2, 3]], dtype=mf.int32), mf.tensor(2.5, dtype=mf.float64)),
        (mf.tensor(3), mf.tensor(F32, dtype=mf.float16)), (mf.tensor([4, 5]), mf.tensor([True, False])),
        (mf.tensor([True, False]), mf.tensor([True, True])),  # bools: or / and
        (nn.Parameter(mf.tensor(F32)), x),             # a subclass
        (x, F32),                                      # a NumPy array
        (x, np.float32(2.0)), (x, True),               # NumPy and bool numbers
        (x, -2**63), (-2**63, x), (x, 2**70),          # ints whose negation or value is beyond int64
        (mf.tensor(F32, dtype=mf.float16), 0.5), (0.5, mf.tensor(F32, dtype=mf.float16)),  # a half beside a number
    ]


@pytest.mark.parametrize("name", ["add", "mul", "sub", "truediv", "pow"])
def test_operators_give_what_the_python_methods_give(name):
    forward = getattr(mf.Tensor, f"__{name}__")
    reflected = getattr(mf.Tensor, f"__r{name}__")
    assert type(forward) is mf._C.TensorMethod
    for a, b in operands():
        if name in ("sub", "pow") and any(v is True or getattr(v, "dtype", None) == mf.bool for v in (a, b)):
            continue  # refused either way (test_ops_elementwise)
        want = getattr(operator, name)
        if isinstance(a, mf.Tensor):
            same(forward(a, b), forward.__wrapped__(a, b))
            same(want(a, b), forward.__wrapped__(a, b))
        else:
            python = getattr(reflected, "__wrapped__", reflected)  # __rtruediv__ stays in Python
            r = python(b, a)
            same(want(a, b), r)
            same(reflected(b, a), r)


@pytest.mark.parametrize("name", ["sub", "rsub", "truediv"])
def test_subtraction_and_division_record_what_the_python_methods_record(name):
    method = getattr(mf.Tensor, f"__{name}__")
    assert type(method) is mf._C.TensorMethod
    for other in (1.5, 3, mf.tensor(F32 * 2)):
        if name == "rsub" and isinstance(other, mf.Tensor):
            continue  # t - w calls t.__sub__
        nodes, grads = [], []
        for f in (method, method.__wrapped__):
            w = nn.Parameter(mf.tensor(F32))
            y = f(w, other)
            nodes.append(type(y.grad_fn).__name__)
            (y * y).sum().backward()
            grads.append(w.grad.numpy())
        assert nodes[0] == nodes[1]
        np.testing.assert_array_equal(grads[0], grads[1])


def test_results_are_recorded_for_autograd_as_before():
    w = nn.Parameter(mf.tensor(F32))
    x = mf.tensor(F32 * 3)
    y = (w * x + 2.0 * w - x).sum()
    assert y.grad_fn is not None
    y.backward()
    np.testing.assert_array_equal(w.grad.numpy(), F32 * 3 + 2.0)
    with mf.no_grad():
        assert (w * x).grad_fn is None and (w * x).requires_grad is False


def test_the_default_dtype_reaches_an_integer_tensor_beside_a_float():
    i = mf.tensor([1, 2, 3])
    try:
        mf.set_default_dtype(mf.float64)
        assert (i * 0.5).dtype == mf.float64 and (0.5 + i).dtype == mf.float64
    finally:
        mf.set_default_dtype(mf.float32)
    assert (i * 0.5).dtype == mf.float32 and (i * 2).dtype == mf.int64


def test_other_operands_are_left_to_python():
    x = mf.tensor(F32)
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        x * object()
    assert mf.Tensor.__add__(x, "a") is NotImplemented  # what the Python method gives
    assert x.add(x, alpha=2).numpy().tolist() == (F32 * 3).tolist()  # keywords: the Python method


def test_an_op_error_is_the_python_methods():
    a, b = mf.tensor(np.ones((2, 3), np.float32)), mf.tensor(np.ones((4,), np.float32))
    for call in (lambda: a + b, lambda: a * b, lambda: a - b):
        with pytest.raises(mf.OpError, match=r"\[(add|mul|sub)\].*broadcast"):
            call()
    with pytest.raises(IndexError):
        a.sum(5)


@pytest.mark.parametrize("name", ["sum", "amax", "amin"])
def test_reductions_give_what_the_python_methods_give(name):
    method = getattr(mf.Tensor, name)
    assert type(method) is mf._C.TensorMethod
    x = mf.tensor(F32)
    calls = [(), (0,), (1,), (-1, True), (None,), (1, False)]
    for args in calls:
        same(getattr(x, name)(*args), method.__wrapped__(x, *args))
    same(x.sum(dim=1, keepdim=True), mf.sum(x, 1, keepdim=True))
    same(mf.tensor([1, 2, 3]).sum(), mf.tensor(6))  # integers sum to int64
    same(x.sum(dtype=mf.float64), mf.sum(x, dtype=mf.float64))
    same(x.sum([0, 1]), mf.sum(x, [0, 1]))
    same(nn.Parameter(x).sum(0), mf.sum(x, 0))


def test_methods_read_like_the_python_functions_they_stand_for():
    assert mf.Tensor.sum.__doc__ == mf.sum.__doc__
    assert inspect.signature(mf.Tensor.sum) == inspect.signature(mf.sum)
    x = mf.tensor(F32)
    bound = x.sum
    same(bound(), mf.sum(x))
    same(x.__add__(x), x + x)
    same(mf.Tensor.__mul__(x, 2.0), x * 2.0)


def test_global_operands_take_the_same_path():
    p = mf.placement("cpu", ranks=[0])
    g = mf.tensor(F32, placement=p, sbp=mf.sbp.broadcast)
    for got, want in ((g + g, F32 + F32), (g * 2.0, F32 * 2), (3 * g, 3 * F32), (g - g, F32 - F32),
                      (g.sum(1), F32.sum(1))):
        assert got.is_global and got.placement == p
        np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal((g + mf.tensor(F32)).numpy(), F32 + F32)  # a local beside: replicated


SETITEM_CASES = [  # (x, key, value): the C path's calls, then calls it leaves to Python
    (F32, 0, 7.5), (F32, (slice(None), -1), -2.0), (F32, (Ellipsis, 1), 3), (F32, (None, 1, slice(0, 3, 2)), 0.25),
    (F32, 1, np.array([9, 8, 7], np.float32)), (F32, slice(None), np.array([[5], [6]], np.float32)),
    (F32, (0, None), np.array([[1, 2, 3]], np.float32)), (F32, (), np.array([4], np.float32)),
    (np.arange(6).reshape(2, 3), 1, 2.75), (np.arange(6).reshape(2, 3), (0, 0), 2**40),  # int64: truncated, exact
    (np.arange(6).reshape(2, 3), 0, 2**70), (F32, 0, True), (F32, 0, np.float32(1.5)),   # Python's
    (F32, 0, np.array([1, 2, 3])), (F32, [0, 1], 1.0),                                  # another dtype; advanced
]


@pytest.mark.parametrize("case", range(len(SETITEM_CASES)))
def test_setitem_writes_what_the_python_method_writes(case):
    array, key, value = SETITEM_CASES[case]
    ours, theirs = mf.tensor(array), mf.tensor(array)
    as_value = (lambda v: mf.tensor(v)) if isinstance(value, np.ndarray) else (lambda v: v)
    outcomes = []
    for t, write in ((ours, mf.Tensor.__setitem__), (theirs, mf.Tensor.__setitem__.__wrapped__)):
        try:
            write(t, key, as_value(value))
            outcomes.append(t.numpy())
        except Exception as e:  # noqa: BLE001 - both paths must raise alike
            outcomes.append((type(e), str(e)))
    if isinstance(outcomes[0], tuple):
        assert outcomes[0] == outcomes[1]
    else:
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(outcomes[0], outcomes[1])
        want = np.array(array, copy=True)
        if not isinstance(key, list):
            want[key] = value
            np.testing.assert_array_equal(outcomes[0], want.astype(outcomes[0].dtype))


def test_setitem_errors_are_the_python_methods():
    for key, value in ((5, 1.0), ((0, 0, 0), 1.0), (slice(None, None, -1), 1.0), (0, mf.tensor(np.ones(4, np.float32)))):
        raised = []
        for write in (mf.Tensor.__setitem__, mf.Tensor.__setitem__.__wrapped__):
            with pytest.raises(Exception) as info:
                write(mf.tensor(F32), key, value)
            raised.append((info.type, str(info.value)))
        assert raised[0] == raised[1], key


def test_setitem_keeps_views_and_versions_as_the_python_method():
    x = mf.tensor(F32)
    row = x[1]  # a live view: written through by the Python path
    x[1] = 5.0
    np.testing.assert_array_equal(row.numpy(), [5.0, 5.0, 5.0])
    y = mf.tensor(F32)
    before = y._version
    y[0, 1] = 1.0
    assert y._version == before + 1
    w = mf.tensor(F32, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf"):
        w[0] = 1.0
    with mf.no_grad():
        w[0] = 1.0
    np.testing.assert_array_equal(w.detach().numpy()[0], [1.0, 1.0, 1.0])
    h = w * 2  # a non-leaf: the write is recorded (Python's path)
    h[0] = 0.0
    h.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [[0, 0, 0], [2, 2, 2]])


VIEW_CALLS = [  # (method, args): the C path's calls, then calls it leaves to Python
    ("reshape", (3, 2)), ("reshape", (-1,)), ("reshape", ((3, 2),)), ("reshape", ([6],)), ("view", (2, 3)),
    ("view", (mf.Size([3, 2]),)), ("transpose", (0, 1)), ("transpose", (-1, 0)), ("unsqueeze", (0,)),
    ("unsqueeze", (-1,)), ("unsqueeze", (2,)), ("permute", (1, 0)), ("permute", ((1, 0),)), ("permute", ([1, 0],)),
    ("permute", (-1, 0)), ("permute", (0, 0)), ("permute", (0,)),
    ("reshape", (np.int64(6),)), ("permute", (np.int64(1), 0)), ("permute", (1.0, 0)), ("reshape", (4, 2)),
    ("transpose", (0, 2)), ("unsqueeze", (3,)), ("view", (True, 6)),
]


@pytest.mark.parametrize("case", range(len(VIEW_CALLS)))
def test_view_methods_give_what_the_python_methods_give(case):
    name, args = VIEW_CALLS[case]
    outcomes = []
    for method in (getattr(mf.Tensor, name), getattr(mf.Tensor, name).__wrapped__):
        x = mf.tensor(F32, requires_grad=True) * 1
        try:
            out = method(x, *args)
        except Exception as e:  # noqa: BLE001 - both paths must raise alike
            outcomes.append((type(e), str(e)))
            continue
        assert type(out) is mf.Tensor and out._view[0] is x and out._view[2] == args
        out[(0,) * out.ndim] = 9.0  # written through to x, as a view
        outcomes.append((out.numpy(), x.detach().numpy(), type(out.grad_fn).__name__ if name != "reshape" else None))
    if isinstance(outcomes[0][0], type):
        assert outcomes[0] == outcomes[1]
        return
    for got, want in zip(outcomes[0], outcomes[1]):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("args", [(), (1,), (-1,), (0,), (4,), ((1, 3),), (np.int64(1),)], ids=str)
def test_squeeze_gives_what_the_python_method_gives(args):
    assert type(mf.Tensor.squeeze) is mf._C.TensorMethod
    outcomes = []
    for method in (mf.Tensor.squeeze, mf.Tensor.squeeze.__wrapped__):
        x = mf.tensor(F32[:, None, :, None], requires_grad=True) * 1  # [2, 1, 3, 1]
        try:
            out = method(x, *args)
        except Exception as e:  # noqa: BLE001 - both paths must raise alike
            outcomes.append((type(e), str(e)))
            continue
        assert type(out) is mf.Tensor and out._view[0] is x and out._view[2] == args
        out[(0,) * out.ndim] = 9.0  # written through to x, as a view
        outcomes.append((out.shape, out.numpy(), x.detach().numpy(), type(out.grad_fn).__name__))
    assert outcomes[0][0] == outcomes[1][0]
    for got, want in zip(outcomes[0][1:], outcomes[1][1:]):
        if isinstance(want, str):
            assert got == want
        else:
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("args", [(2,), (3, 1), (2, -1), (4, 1), (1, 0), (0,), (2, 2), (2.0,), (np.int64(2), 1)],
                         ids=str)
def test_chunk_gives_what_the_python_method_gives(args):
    assert type(mf.Tensor.chunk) is mf._C.TensorMethod
    outcomes = []
    for method in (mf.Tensor.chunk, mf.Tensor.chunk.__wrapped__):
        w = mf.tensor(F32, requires_grad=True)
        x = w * 1
        try:
            pieces = method(x, *args)
        except Exception as e:  # noqa: BLE001 - both paths must raise alike
            outcomes.append((type(e), str(e)))
            continue
        assert type(pieces) is tuple and all(p._view[0] is x for p in pieces)
        records = [p._view[2] for p in pieces]
        nodes = [type(p.grad_fn).__name__ for p in pieces]
        sum((p * (i + 1)).sum() for i, p in enumerate(pieces)).backward()
        gradient = w.grad.numpy()
        pieces[-1][(0,) * x.ndim] = 9.0  # written through to x, as a view
        outcomes.append((records, nodes, [p.numpy() for p in pieces], x.detach().numpy(), gradient))
    if isinstance(outcomes[1][0], type):
        assert outcomes[0] == outcomes[1]
        return
    assert outcomes[0][:2] == outcomes[1][:2]
    for got, want in zip(outcomes[0][2], outcomes[1][2]):
        np.testing.assert_array_equal(got, want)
    for got, want in zip(outcomes[0][3:], outcomes[1][3:]):
        np.testing.assert_array_equal(got, want)


def test_t_is_the_python_methods_a_transpose_view():
    fallback = mf.Tensor.t.__wrapped__
    assert type(mf.Tensor.t) is mf._C.TensorMethod
    for method in (mf.Tensor.t, fallback):
        x = mf.tensor(F32, requires_grad=True) * 1
        out = method(x)
        assert type(out.grad_fn).__name__ == "TBackward0"
        assert out._view[0] is x and out._view[1] is mf.Tensor.transpose.view_kind and out._view[2] == (0, 1)
        assert out.stride() == (1, 3) and not out.is_contiguous()
        out[1, 0] = 9.0  # written through to x, as a view
        np.testing.assert_array_equal(x.detach().numpy(), [[1.5, 9.0, 3.25], [0.5, 4.0, -1.0]])
        w = mf.tensor(F32, requires_grad=True)
        (method(w) * mf.tensor(F32.T)).sum().backward()  # recorded: the gradient reaches w
        np.testing.assert_array_equal(w.grad.numpy(), F32)
        v = mf.tensor(F32[0])
        assert method(v) is v  # below 2 dims: itself, as torch's
        with pytest.raises(RuntimeError, match="t\\(\\) expects a tensor with <= 2 dimensions"):
            method(mf.tensor(F32[None]))
    g = mf.tensor(F32, placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.split(1))
    gt = g.t()  # a global tensor: the fallback's
    assert gt.is_global and gt.sbp == (mf.sbp.split(0),)
    np.testing.assert_array_equal(gt.numpy(), F32.T)


def test_permute_of_a_view_is_linked_and_read_back_as_the_python_methods():
    for method in (mf.Tensor.permute, mf.Tensor.permute.__wrapped__):
        base = mf.tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
        view = method(base[1], 1, 0)  # a view of a view
        assert view._view[0]._view[0] is base and view.stride() == (1, 4)
        view[0, 1] = -1.0
        assert base[1, 1, 0].item() == -1.0
        base[1, 2, 3] = -2.0  # a write to the base is seen by the view
        assert view[3, 2].item() == -2.0
    g = mf.tensor(F32, placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.split(0))
    gp = g.permute(1, 0)  # a global tensor: the fallback's
    assert gp.is_global and gp.sbp == (mf.sbp.split(1),)
    np.testing.assert_array_equal(gp.numpy(), F32.T)


MATMUL_CASES = [  # (a, b): the C path's calls, then calls it leaves to Python
    (F32, F32.T), (np.stack([F32, F32 * 2]), F32.T), (F32.T, np.stack([F32, -F32])), (F32, F32),
    (np.stack([F32, F32 * 2]), np.stack([F32.T, -F32.T])),
    (np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2)), (F32, F32.T.astype(np.float64)),
    (F32[0], F32.T), (F32, F32[0]), (F32[0], F32[0]), (F32, np.float32(2)),
]


def _product_outcome(f, a, b):
    """f(x, y)'s value, node name and x's gradient, or the error it raised (both paths of a
    product must raise alike)."""
    x, y = mf.tensor(a, requires_grad=a.dtype == np.float32), mf.tensor(b)
    try:
        out = f(x, y)
    except Exception as e:  # noqa: BLE001
        return type(e), str(e)
    if out.requires_grad:
        out.sum().backward()
    return out.numpy(), type(out.grad_fn).__name__, None if x.grad is None else x.grad.numpy()


@pytest.mark.parametrize("case", range(len(MATMUL_CASES)))
def test_matmul_gives_what_the_python_function_gives(case):
    a, b = MATMUL_CASES[case]
    fallback = mf.Tensor.__matmul__.__wrapped__
    assert type(mf.Tensor.__matmul__) is mf._C.TensorMethod and mf.Tensor.matmul is mf.Tensor.__matmul__
    outcomes = [_product_outcome(f, a, b) for f in (lambda x, y: x @ y, lambda x, y: x.matmul(y), fallback)]
    for got in outcomes[:2]:
        if isinstance(outcomes[2][0], type):
            assert got == outcomes[2]
            continue
        for g, w in zip(got, outcomes[2]):
            np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("name", ["mm", "bmm"])
@pytest.mark.parametrize("case", range(len(MATMUL_CASES)))
def test_mm_and_bmm_give_what_the_python_functions_give(name, case):
    a, b = MATMUL_CASES[case]
    function = getattr(mf.Tensor, name)  # mf.mm is sparse's wrapper over it; mf.bmm is it
    assert type(function) is mf._C.TensorMethod and (name == "mm" or mf.bmm is function)
    outcomes = [_product_outcome(f, a, b) for f in (function, function.__wrapped__)]
    if isinstance(outcomes[1][0], type):
        assert outcomes[0] == outcomes[1]
        return
    for g, w in zip(*outcomes):
        np.testing.assert_array_equal(g, w)


def test_matmul_and_where_of_global_tensors_are_global():
    p = mf.placement("cpu", ranks=[0])
    a = mf.tensor(F32, placement=p, sbp=mf.sbp.split(0))
    b = mf.tensor(F32.T, placement=p, sbp=mf.sbp.broadcast)
    got = a @ b
    assert got.is_global and got.placement == p
    np.testing.assert_allclose(got.numpy(), F32 @ F32.T, rtol=1e-6)
    c = mf.tensor(F32 > 0, placement=p, sbp=mf.sbp.broadcast)
    w = mf.where(c, a, a * 2)
    assert w.is_global and w.placement == p
    np.testing.assert_array_equal(w.numpy(), np.where(F32 > 0, F32, F32 * 2))


WHERE_CASES = [  # (condition, x, y): the C path's calls, then calls it leaves to Python
    (F32 > 0, F32, -F32), (F32[0] > 0, F32, F32 * 3), (F32 > 0, F32[0], F32), (F32 > 0, np.arange(6).reshape(2, 3),
                                                                              np.zeros((2, 3), np.int64)),
    (F32 > 0, F32, F32[:2, :2]),
    (F32 > 0, F32, F32.astype(np.float64)), (F32 > 0, F32, 2.5), (F32 > 0, 1, F32), (F32, F32, F32),
    (F32 > 0, np.arange(6).reshape(2, 3), F32),
]


@pytest.mark.parametrize("case", range(len(WHERE_CASES)))
def test_where_gives_what_the_python_function_gives(case):
    c, a, b = WHERE_CASES[case]
    fallback = mf.where.__wrapped__
    assert type(mf.where) is mf._C.TensorMethod
    outcomes = []
    for f in (mf.where, fallback):
        args = [mf.tensor(v) if isinstance(v, np.ndarray) else v for v in (c, a, b)]
        if isinstance(a, np.ndarray) and a.dtype == np.float32:
            args[1] = mf.tensor(a, requires_grad=True)
        try:
            out = f(*args)
        except Exception as e:  # noqa: BLE001 - both paths must raise alike
            outcomes.append((type(e), str(e)))
            continue
        if out.requires_grad:
            out.sum().backward()
        grad = args[1].grad.numpy() if isinstance(args[1], mf.Tensor) and args[1].grad is not None else None
        outcomes.append((out.numpy(), out.dtype, type(out.grad_fn).__name__, grad))
    if isinstance(outcomes[1][0], type):
        assert outcomes[0] == outcomes[1]
        return
    for got, want in zip(outcomes[0], outcomes[1]):
        np.testing.assert_array_equal(got, want)
    assert type(mf.where(mf.tensor(F32 > 0), nn.Parameter(mf.tensor(F32)), mf.tensor(F32))) is mf.Tensor
    assert len(mf.where(mf.tensor(F32 > 0))) == 2  # where(condition): nonzero's, the fallback's
    out = mf.zeros(2, 3)
    mf.where(mf.tensor(F32 > 0), mf.tensor(F32), mf.tensor(-F32), out=out)  # torch's out=, the fallback's
    np.testing.assert_array_equal(out.numpy(), np.abs(F32))


def test_transpose_and_unsqueeze_nodes_are_torchs():
    x = mf.tensor(F32, requires_grad=True)
    assert type(x.transpose(0, 1).grad_fn).__name__ == "TransposeBackward0"
    assert type(x.unsqueeze(1).grad_fn).__name__ == "UnsqueezeBackward0"
    t = x.transpose(0, 1)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        t.view(6)  # strided: view() refuses, as torch's


INPLACE_CALLS = [  # (method, x, other): the C path's calls, then calls it leaves to Python
    ("add_", F32, F32 * 2), ("add_", F32, F32[0]), ("add_", F32, 2.5), ("sub_", F32, F32[:, :1]), ("mul_", F32, 3),
    ("mul_", np.arange(6).reshape(2, 3), 4), ("add_", np.array([True, False]), np.array([True, True])),
    ("add_", F32[0], F32), ("mul_", np.arange(3), 2.5), ("add_", F32, F32.astype(np.float64)), ("sub_", F32, 1.0),
    ("add_", F32, np.float32(2.0)),
]


@pytest.mark.parametrize("case", range(len(INPLACE_CALLS)))
def test_inplace_methods_write_what_the_python_methods_write(case):
    name, array, other = INPLACE_CALLS[case]
    outcomes = []
    for method in (getattr(mf.Tensor, name), getattr(mf.Tensor, name).__wrapped__):
        x = mf.tensor(array)
        before = x._version
        try:
            out = method(x, mf.tensor(other) if isinstance(other, np.ndarray) else other)
        except Exception as e:  # noqa: BLE001 - both paths must raise alike
            outcomes.append((type(e), str(e)))
            continue
        assert out is x and x._version == before + 1
        outcomes.append((x.dtype, x.numpy()))
    assert outcomes[0][0] == outcomes[1][0]
    if not isinstance(outcomes[0][0], type):
        np.testing.assert_array_equal(outcomes[0][1], outcomes[1][1])


def test_inplace_methods_keep_views_and_gradients_as_the_python_methods():
    x = mf.tensor(F32)
    row = x[0]  # a live view: the Python path writes it again
    x.mul_(2.0)
    np.testing.assert_array_equal(row.numpy(), F32[0] * 2)
    w = mf.tensor(F32, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf"):
        w.add_(1.0)
    h = w * 1
    h.mul_(3.0)  # recorded: h's node is now the mul
    h.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.full_like(F32, 3))
    r = w * 1
    s = r * r  # read r before its write: backward refuses, as torch's
    r.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        s.sum().backward()


INDEX_ROWS = [  # (x, index): the C path's keys, then keys it leaves to Python
    (F32, np.array([1, 0, 1])), (F32, np.array([[-1], [0]])), (F32, np.array([1, -2], np.int32)), (F32[0], np.array([2, 0])),
    (np.arange(12).reshape(2, 3, 2), np.array([1])), (F32, np.array([2])), (F32, np.array([-3])),
    (np.array([True, False]), np.array([1, 1])), (F32, np.array([True, False])), (F32, np.array(1)),
]


@pytest.mark.parametrize("case", range(len(INDEX_ROWS)))
def test_an_index_tensor_picks_what_the_python_method_picks(case):
    array, index = INDEX_ROWS[case]
    outcomes = []
    for getitem in (mf.Tensor.__getitem__, mf.Tensor.__getitem__.__wrapped__):
        floating = np.asarray(array).dtype.kind == "f"
        x = mf.tensor(array, requires_grad=floating)
        try:
            out = getitem(x, mf.tensor(index))
            value = out.numpy()
        except Exception as e:  # noqa: BLE001 - both paths must raise alike
            outcomes.append((type(e), str(e)))
            continue
        assert getattr(out, "_view", None) is None  # a copy, not a view
        if floating:
            assert type(out.grad_fn).__name__ == ("IndexBackward0" if index.ndim else "SelectBackward0")
            (out * mf.tensor(np.arange(out.numel(), dtype=np.float32).reshape(out.shape))).sum().backward()
        outcomes.append((value, x.grad.numpy() if floating else None))
    if isinstance(outcomes[0][0], type):
        assert outcomes[0] == outcomes[1]
        return
    np.testing.assert_array_equal(outcomes[0][0], np.asarray(array)[index])
    for got, want in zip(outcomes[0], outcomes[1]):
        np.testing.assert_array_equal(got, want)


def test_item_reads_a_made_host_value_at_once_and_raises_a_kernels_error():
    # A value made on the host is read without letting the GIL go (vm::settled); an error of
    # the kernel that made it is still raised by the read.
    assert mf.tensor([2.5]).item() == 2.5 and mf.tensor([3]).item() == 3 and mf.tensor([True]).item() is True
    y = mf.tensor(np.arange(3)) // mf.tensor(np.zeros(3, np.int64))
    with pytest.raises(RuntimeError, match="division by zero"):
        y[0:1].sum().item()
    with pytest.raises(RuntimeError, match="one element"):
        mf.tensor(F32).item()


def test_size_and_shape_are_the_python_methods():
    x = mf.tensor(np.zeros((2, 3, 4), np.float32))
    python_size = mf.Tensor.size.__wrapped__
    for args in ((), (0,), (-1,), (2,), (None,), (np.int64(1),)):
        got, want = x.size(*args), python_size(x, *args)
        assert got == want and type(got) is type(want)
    assert type(x.shape) is mf.Size and x.shape == (2, 3, 4) and mf.tensor(1.0).shape == ()
    for bad in (3, -4, "0"):
        raised = []
        for size in (mf.Tensor.size, python_size):
            with pytest.raises(Exception) as info:
                size(x, bad)
            raised.append((info.type, str(info.value)))
        assert raised[0] == raised[1]


COMPARE_CALLS = [  # (x, other): the C path's calls, then calls it leaves to Python
    (F32, F32[0]), (F32, 1.5), (F32, -2), (np.arange(6).reshape(2, 3), 4), (F32.astype(np.float64), 0.5),
    (np.arange(3, dtype=np.int32), 1), (np.arange(3), 1.5), (np.array([True, False]), 1), (F32, F32.astype(np.float64)),
    (F32, True), (F32, np.float32(1.5)), (F32, None), (F32, 2**70),
    (F32, np.array([True, False, True])), (np.arange(3), F32), (np.array(True), np.arange(3, dtype=np.int32)),
]


@pytest.mark.parametrize("case", range(len(COMPARE_CALLS)))
@pytest.mark.parametrize("name", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_comparisons_give_what_the_python_methods_give(name, case):
    array, other = COMPARE_CALLS[case]
    x = mf.tensor(array)
    operand = mf.tensor(other) if isinstance(other, np.ndarray) else other
    method = getattr(mf.Tensor, f"__{name}__")
    outcomes = []
    for call in (method, method.__wrapped__):
        try:
            outcomes.append(call(x, operand))
        except Exception as e:  # noqa: BLE001 - both paths must raise alike
            outcomes.append((type(e), str(e)))
    if isinstance(outcomes[1], mf.Tensor):
        same(*outcomes)
        np.testing.assert_array_equal(outcomes[0].numpy(), getattr(operator, name)(array, other))
    else:
        assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("array", [F32, np.float32(2.5), np.arange(4), np.array([True, False])])
def test_clone_copies_as_the_python_function(array):
    for clone in (mf.Tensor.clone, mf.Tensor.clone.__wrapped__, mf.clone):
        x = mf.tensor(array, requires_grad=np.asarray(array).dtype.kind == "f")
        out = clone(x)
        assert out is not x and out.dtype == x.dtype and out.shape == x.shape
        np.testing.assert_array_equal(out.numpy(), np.asarray(array))
        if x.requires_grad:
            assert type(out.grad_fn).__name__ == "CloneBackward0"
            (out * 3).sum().backward()
            np.testing.assert_array_equal(x.grad.numpy(), np.full_like(np.asarray(array), 3))
        with mf.no_grad():
            out.zero_()  # its own memory
        np.testing.assert_array_equal(x.detach().numpy(), np.asarray(array))
    p = mf.placement("cpu", ranks=[0])
    g = mf.tensor(array, placement=p, sbp=mf.sbp.broadcast)
    assert g.clone().is_global and g.clone().placement == p
    np.testing.assert_array_equal(g.clone().numpy(), np.asarray(array))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "bool", "bfloat16", "float16"])
def test_to_a_dtype_is_the_general_paths(dtype):
    # to(dtype) alone is read first (Tensor.to); to(dtype=...) takes the general path
    for array in (F32, np.arange(4), np.array([True, False])):
        x = mf.tensor(array)
        target = getattr(mf, dtype)
        got, want = x.to(target), x.to(dtype=target)
        assert (got is x) == (want is x) == (x.dtype == target)
        same(got, want)
    p = mf.placement("cpu", ranks=[0])
    g = mf.tensor(F32, placement=p, sbp=mf.sbp.broadcast).to(getattr(mf, dtype))
    assert g.is_global and g.dtype == getattr(mf, dtype)


@pytest.mark.parametrize("array", [np.float32(2.5), np.array([3]), np.array([[True]]), np.array([1.5], np.float64)])
def test_item_is_the_python_methods(array):
    assert type(mf.Tensor.item) is mf._C.TensorMethod
    python_item = mf.Tensor.item.__wrapped__
    for dtype in (None, mf.bfloat16, mf.float16, mf.int32):
        x = mf.tensor(array, dtype=dtype)
        got, want = x.item(), python_item(x)
        assert type(got) is type(want) and got == want
    with pytest.raises(RuntimeError, match=r"one element; this one has shape \(2, 3\)"):
        mf.tensor(F32).item()
    with pytest.raises(RuntimeError, match=r"one element; this one has shape \(2, 3\)"):
        python_item(mf.tensor(F32))


CAT_CALLS = [
    lambda t: ([t["a"], t["b"]],), lambda t: ((t["a"], t["b"], t["a"]), 1), lambda t: ([t["a"], t["b"]], -1),
    lambda t: ([t["a"]],), lambda t: ([t["a"], t["i"]], 0),           # dtypes: the fallback promotes
    lambda t: ([t["a"], t["empty"]], 1),                                # a 1-d empty tensor: the fallback drops it
    lambda t: ([t["p"], t["a"]],), lambda t: ([t["a"], t["b"]], np.int64(1)),  # a subclass; a NumPy dim
]


@pytest.mark.parametrize("case", range(len(CAT_CALLS)))
def test_cat_gives_what_the_python_function_gives(case):
    assert type(mf.cat) is mf._C.TensorMethod
    t = {"a": mf.tensor(F32), "b": mf.tensor(F32 * 3), "i": mf.tensor(np.ones((2, 3), np.int64)),
         "empty": mf.tensor(np.zeros(0, np.float32)), "p": nn.Parameter(mf.tensor(F32))}
    args = CAT_CALLS[case](t)
    same(mf.cat(*args), mf.cat.__wrapped__(*args))
    if len(args) == 2:
        same(mf.cat(args[0], dim=args[1]), mf.cat.__wrapped__(*args))


def test_cat_errors_and_gradients_are_the_python_functions():
    a, b = mf.tensor(F32), mf.tensor(np.ones((3, 2), np.float32))
    for cat in (mf.cat, mf.cat.__wrapped__):
        with pytest.raises(ValueError, match="cat"):
            cat([a, b])
    w = mf.tensor(F32, requires_grad=True)
    out = mf.cat([w, w * 2], 1)
    assert out.grad_fn.name() == mf.cat.__wrapped__([w, w * 2], 1).grad_fn.name()
    out.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.full_like(F32, 3))


def test_reshape_of_a_strided_view_is_the_python_methods_copy():
    # A view whose strides torch's reshape cannot keep: C++'s reshape, not linked as a view
    # (writes stay in the copy); one it can keep: linked, writes reach the base.
    raw = mf._inplace._RAW["reshape"]
    x = mf.arange(24.0).view(2, 3, 4)
    for view, shape in ((x.transpose(0, 1), (-1,)), (x[:, 1:], (-1,)), (x.transpose(1, 2), [2, 12])):
        got = view.reshape(shape) if isinstance(shape, list) else view.reshape(*shape)
        same(got, raw(view, shape) if isinstance(shape, list) else raw(view, *shape))
        assert getattr(got, "_view", None) is None
    y = mf.arange(12.0).view(3, 4)
    y[:, 1:].reshape(3, 3).mul_(0)
    assert y.tolist() == [[0.0, 0.0, 0.0, 0.0], [4.0, 0.0, 0.0, 0.0], [8.0, 0.0, 0.0, 0.0]]



CONTIGUOUS_KEYS = [0, -1, (slice(None), 1), (slice(None), slice(1, None)), slice(1, None), (Ellipsis, 0),
                   (Ellipsis, slice(None, None, 2)), (None, 0), (0, None), (slice(None), None, slice(1, 3)),
                   (slice(None, None, 2),), (slice(0, 1), slice(None), slice(0, 1)), (Ellipsis, None),
                   (slice(2, 2),), (1, 2, 3), (slice(None), 0, slice(None, None, 3))]


@pytest.mark.parametrize("key", CONTIGUOUS_KEYS, ids=str)
def test_contiguous_is_the_python_methods(key):
    assert type(mf.Tensor.contiguous) is mf._C.TensorMethod
    python_contiguous = mf.Tensor.contiguous.__wrapped__
    x = mf.arange(60.0).view(3, 4, 5)
    v = x[key]
    got, want = v.contiguous(), python_contiguous(v)
    assert (got is v) == (want is v) == v.is_contiguous()
    same(got, want)
    if got is not v:  # a copy: writes to it stay there
        got.mul_(0)
        assert x.sum().item() == sum(range(60))
    assert x.contiguous() is x
    for other in (x.transpose(0, 1)[0], x[1:][0], x.detach()[0], x.transpose(0, 1), x.transpose(-1, 1),
                  x.transpose(2, 2), x[:1].transpose(0, 2), x.permute(1, 0, 2)):  # transposes and views of views
        assert (other.contiguous() is other) == (python_contiguous(other) is other) == other.is_contiguous()


RESHAPED_VIEWS = [lambda x: x.transpose(0, 1), lambda x: x.transpose(-1, 1), lambda x: x.transpose(1, 1),
                  lambda x: x[:, 1:], lambda x: x[1:], lambda x: x[:, :, ::2], lambda x: x[0], lambda x: x[None],
                  lambda x: x[..., 1:3], lambda x: x[:1].transpose(0, 1), lambda x: x.permute(2, 0, 1)]


@pytest.mark.parametrize("case", range(len(RESHAPED_VIEWS)))
def test_reshape_of_a_view_links_where_the_python_method_links(case):
    # Linked (a view: writes reach the base) exactly where the Python method links, by
    # torch's strides of the view; the same values either way.
    python_reshape = mf.Tensor.reshape.__wrapped__
    for shape in ((-1,), (2, -1), (-1, 2), (1, -1, 1)):
        x = mf.arange(60.0).view(3, 4, 5)
        v = RESHAPED_VIEWS[case](x)
        if v.numel() % 2 and len(shape) > 1:
            continue
        got, want = v.reshape(*shape), python_reshape(v, *shape)
        same(got, want)
        assert (getattr(got, "_view", None) is None) == (getattr(want, "_view", None) is None)
        got.mul_(0)
        assert (x.sum().item() == sum(range(60))) == (getattr(want, "_view", None) is None)


def test_views_made_and_dropped_in_a_loop_leave_one_record_and_live_ones_follow_writes():
    # A view that dies before the next is made gives its record's place to the next (no growth
    # of base._views per call); views still alive keep theirs and follow a write to the base.
    x = mf.tensor(F32)
    for i in range(20):
        x.transpose(0, 1)
        x[i % 2]
    assert len(x._views) == 1
    kept = [x[0], x.transpose(0, 1), x[1]]
    for _ in range(20):
        x[:, 1]
    x.add_(1.0)
    np.testing.assert_array_equal(kept[0].numpy(), F32[0] + 1)
    np.testing.assert_array_equal(kept[1].numpy(), (F32 + 1).T)
    np.testing.assert_array_equal(kept[2].numpy(), F32[1] + 1)
    assert sum(r() is not None for r in x._views) == 3


CREATION_CALLS = [  # args: the C path's calls, then calls it leaves to Python
    (3,), (2, 3), ((2, 3),), ([2, 0],), (), (mf.Size([1, 2]),),
    (-1,), (True,), (1.5,), (np.int64(2),), (2**40, 2**40), (2**70,),
]


@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_creation_functions_make_what_the_python_functions_make(name):
    f = getattr(mf, name)
    assert type(f) is mf._C.TensorMethod
    for args in CREATION_CALLS:
        outcomes = []
        for call in (f, f.__wrapped__):
            try:
                out = call(*args)
            except Exception as e:  # noqa: BLE001 - both paths must raise alike
                outcomes.append((type(e), str(e)))
                continue
            outcomes.append((type(out), out.dtype, out.device, out.numpy().tolist(), out.requires_grad))
        assert outcomes[0] == outcomes[1], args


def test_creation_functions_follow_the_default_dtype_and_device_and_take_keywords():
    try:
        mf.set_default_dtype(mf.float64)
        assert mf.zeros(2).dtype == mf.ones(2, 1).dtype == mf.empty(3).dtype == mf.float64
    finally:
        mf.set_default_dtype(mf.float32)
    assert mf.zeros(2).dtype == mf.float32
    with mf.device("meta"):
        assert mf.ones(2).device.type == "meta"  # placed by the Python
    assert mf.ones(2).device.type == "cpu"
    out = mf.ones(3)
    assert mf.zeros(3, out=out) is out and out.numpy().tolist() == [0, 0, 0]  # torch's out=, the fallback's
    assert mf.ones(2, dtype=mf.int64).dtype == mf.int64 and mf.zeros(2, requires_grad=True).requires_grad
    g = mf.zeros(4, placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.split(0))
    assert g.is_global and g.numpy().tolist() == [0, 0, 0, 0]


ONE_TENSOR_OPERANDS = [  # the C path's operands (integers and bools: widened ones, the Python's), then one it
    F32, -F32[0], np.arange(-3, 3), np.array([True, False]), np.float32(2.5) * np.ones(()),  # leaves to Python
    F32.astype(np.float64), F32.astype(np.float16), F32.astype(np.complex64), F32.tolist(),
]


@pytest.mark.parametrize("name", ["relu", "neg", "abs", "trunc", "logical_not", "bitwise_not", "isnan", "frac",
                                  "exp", "sigmoid", "tanh", "sqrt", "sin"])
def test_ops_of_one_tensor_give_what_the_python_functions_give(name):
    f = getattr(mf, name)
    assert type(f) is mf._C.TensorMethod
    for operand in ONE_TENSOR_OPERANDS:
        outcomes = []
        for call in (f, f.__wrapped__, lambda x: getattr(x, name)() if isinstance(x, mf.Tensor) else f(x)):
            x = mf.tensor(operand) if isinstance(operand, np.ndarray) else operand
            if isinstance(operand, np.ndarray) and operand.dtype == np.float32:
                x = mf.tensor(operand, requires_grad=True)
            try:
                out = call(x)
            except Exception as e:  # noqa: BLE001 - both paths must raise alike
                outcomes.append((type(e), str(e)))
                continue
            grad = None
            if out.requires_grad:
                out.sum().backward()
                grad = x.grad.numpy().tolist()
            outcomes.append((out.numpy().tolist(), out.dtype, type(out.grad_fn).__name__, grad))
        np.testing.assert_equal(outcomes[0], outcomes[1])  # NaNs (sqrt's) as equal
        np.testing.assert_equal(outcomes[2], outcomes[1])
    a = np.arange(-3, 3).reshape(2, 3) if name == "bitwise_not" else -F32  # a dtype the op takes
    def dtype_of(call, x):
        try:
            return call(x).dtype
        except Exception as e:  # noqa: BLE001 - both paths must raise alike
            return type(e), str(e)
    try:  # the default dtype widens integers and bools (the Python's), not the floats C takes
        mf.set_default_dtype(mf.float64)
        for operand in (np.arange(3), F32):
            assert dtype_of(f, mf.tensor(operand)) == dtype_of(f.__wrapped__, mf.tensor(operand))
    finally:
        mf.set_default_dtype(mf.float32)
    g = mf.tensor(a, placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.split(0))
    assert f(g).is_global and f(g).sbp == g.sbp
    np.testing.assert_array_equal(f(g).numpy(), f(mf.tensor(a)).numpy())
    if name != "bitwise_not":
        assert type(f(nn.Parameter(mf.tensor(a)))) is mf.Tensor
    out = mf.ones(2, 3, dtype=f(mf.tensor(a)).dtype)
    assert f(mf.tensor(a), out=out) is out  # torch's out=, the fallback's
    np.testing.assert_array_equal(out.numpy(), f(mf.tensor(a)).numpy())
