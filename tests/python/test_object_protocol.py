"""The Python object protocol as PyTorch programs use it: copy.deepcopy and pickle of tensors,
parameters, state dicts, modules and optimizer states; Size; grad_fn nodes; print options;
and the exception classes of errors (issue 37). Expectations are written by hand from
PyTorch's behaviour."""
import collections
import copy
import pickle
import re

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn


def roundtrip(value):
    return pickle.loads(pickle.dumps(value))


# copy.deepcopy and pickle ---------------------------------------------------------------------

DTYPES = [(mf.float32, [1.5, -2.0, 3.25]), (mf.float64, [1.5, -2.0, 1e-300]), (mf.int32, [1, -2, 2**31 - 1]),
          (mf.int64, [1, -2, 2**62]), (mf.bool, [True, False, True]), (mf.bfloat16, [1.5, -2.0, 256.0]),
          (mf.float16, [1.5, -2.0, 0.25])]


@pytest.mark.parametrize("dtype, values", DTYPES, ids=lambda v: getattr(v, "name", ""))
@pytest.mark.parametrize("copier", [copy.deepcopy, roundtrip], ids=["deepcopy", "pickle"])
def test_a_copy_has_the_value_dtype_and_shape(dtype, values, copier):
    x = mf.tensor([values, values], dtype=dtype)
    y = copier(x)
    assert type(y) is mf.Tensor and y.dtype == dtype and y.shape == (2, 3)
    assert np.array_equal(y.numpy(), x.numpy()) and not y.requires_grad and y.is_leaf


@pytest.mark.parametrize("copier", [copy.deepcopy, roundtrip], ids=["deepcopy", "pickle"])
def test_a_copy_keeps_requires_grad_and_is_a_leaf_of_its_own(copier):
    x = mf.tensor([1.0, 2.0], requires_grad=True)
    y = copier(x)
    assert y.requires_grad and y.is_leaf and y.grad_fn is None
    (y * 3).sum().backward()
    assert x.grad is None and y.grad.tolist() == [3.0, 3.0]
    with mf.no_grad():
        x.add_(1)
    assert y.tolist() == [1.0, 2.0]  # the copy's data is its own


def test_deepcopy_copies_the_grad_and_refuses_a_computed_tensor():
    x = mf.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    y = copy.deepcopy(x)
    assert y.grad.tolist() == [2.0, 2.0] and not y.grad._impl.same(x.grad._impl)
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(x * 2)
    assert copy.deepcopy((x * 2).detach()).tolist() == [2.0, 4.0]


def test_a_pickled_computed_tensor_loads_as_a_leaf_that_requires_grad():
    y = roundtrip(mf.tensor([1.0, 2.0], requires_grad=True) * 2)  # as torch's
    assert y.is_leaf and y.requires_grad and y.tolist() == [2.0, 4.0]


def test_deepcopy_keeps_sharing_within_one_copy():
    x = mf.tensor([1.0])
    a, b = copy.deepcopy([x, x])
    assert a is b and a is not x


@pytest.mark.parametrize("copier", [copy.deepcopy, roundtrip], ids=["deepcopy", "pickle"])
@pytest.mark.parametrize("requires_grad", [True, False])
def test_a_parameter_copies_as_a_parameter(copier, requires_grad):
    p = nn.Parameter(mf.tensor([1.0, 2.0]), requires_grad=requires_grad)
    q = copier(p)
    assert type(q) is nn.Parameter and q.requires_grad == requires_grad and q.is_leaf and q.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("copier", [copy.deepcopy, roundtrip], ids=["deepcopy", "pickle"])
def test_a_state_dict_copies_as_an_ordered_dict_of_tensors(copier):
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    state = model.state_dict()
    copied = copier(state)
    assert type(copied) is collections.OrderedDict and list(copied) == list(state)
    for name, value in state.items():
        assert copied[name].dtype == value.dtype and np.array_equal(copied[name].numpy(), value.numpy())
    nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)).load_state_dict(copied)


@pytest.mark.parametrize("copier", [copy.deepcopy, roundtrip], ids=["deepcopy", "pickle"])
def test_a_model_copies_whole_with_parameters_of_its_own(copier):
    # EMA models and target networks: copy.deepcopy(model), then train one of them.
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    target = copier(model)
    x = mf.randn(5, 3)
    assert np.array_equal(target(x).numpy(), model(x).numpy())
    assert all(type(p) is nn.Parameter and p.requires_grad for p in target.parameters())
    model(x).sum().backward()
    mf.optim.SGD(model.parameters(), lr=0.5).step()
    assert not np.array_equal(target(x).numpy(), model(x).numpy())
    assert all(p.grad is None for p in target.parameters())


@pytest.mark.parametrize("copier", [copy.deepcopy, roundtrip], ids=["deepcopy", "pickle"])
def test_an_optimizer_state_copies_and_loads(copier):
    model = nn.Linear(3, 2)
    opt = mf.optim.Adam(model.parameters(), lr=0.1)
    model(mf.randn(4, 3)).sum().backward()
    opt.step()
    state = copier(opt.state_dict())
    fresh = mf.optim.Adam(model.parameters(), lr=0.1)
    fresh.load_state_dict(state)
    ours, theirs = fresh.state_dict(), opt.state_dict()
    assert ours["param_groups"] == theirs["param_groups"]
    for index, entry in theirs["state"].items():
        for key, value in entry.items():
            expected = value.numpy() if isinstance(value, mf.Tensor) else value
            got = ours["state"][index][key]
            assert np.array_equal(got.numpy() if isinstance(got, mf.Tensor) else got, expected)


@pytest.mark.parametrize("sbp", [mf.sbp.split(0), mf.sbp.broadcast, mf.sbp.partial_sum], ids=repr)
def test_deepcopy_of_a_global_tensor_keeps_its_placement_and_sbp(sbp):
    placement = mf.placement("cpu", ranks=[0])
    g = mf.tensor([[1.5, -2.0]], placement=placement, sbp=sbp, requires_grad=True)
    c = copy.deepcopy(g)
    assert c.is_global and c.placement == placement and c.sbp == (sbp,) and c.requires_grad and c.is_leaf
    assert c.numpy().tolist() == [[1.5, -2.0]]


def test_pickle_of_a_global_tensor_says_what_to_do():
    g = mf.tensor([1.0], placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.broadcast)
    with pytest.raises(TypeError, match=r"global tensor.*to_local\(\)"):
        pickle.dumps(g)


# Size ----------------------------------------------------------------------------------------

def test_size_is_a_tuple_that_prints_as_a_size():
    x = mf.zeros(2, 3)
    for s in (x.size(), x.shape):
        assert type(s) is mf.Size and isinstance(s, tuple)
        assert repr(s) == str(s) == "meshflow.Size([2, 3])" and s.numel() == 6
        assert s == (2, 3) and s != [2, 3] and hash(s) == hash((2, 3))  # as torch.Size
    assert x.size(1) == 3 and type(x.size(-1)) is int and x.shape[0] == 2
    assert repr(mf.zeros(()).shape) == "meshflow.Size([])" and mf.zeros(()).shape.numel() == 1
    with pytest.raises(IndexError, match="dim 2 is out of range"):
        x.size(2)


def test_size_slices_and_sums_are_sizes():
    s = mf.Size([2, 3, 4])
    assert type(s[1:]) is mf.Size and s[1:] == (3, 4) and type(s[0]) is int
    assert type(s + (5,)) is mf.Size and s + (5,) == (2, 3, 4, 5)
    assert type((1,) + s) is mf.Size and (1,) + s == (1, 2, 3, 4)
    assert type(s * 2) is mf.Size and len(2 * s) == 6
    assert roundtrip(s) == s and type(roundtrip(s)) is mf.Size and type(copy.deepcopy(s)) is mf.Size
    with pytest.raises(TypeError, match="'float'"):
        mf.Size([2.5])


def test_a_size_goes_wherever_a_shape_does():
    x = mf.arange(6.0).reshape(2, 3)
    assert mf.zeros(x.size()).shape == (2, 3) and mf.ones(x.shape).shape == (2, 3)
    assert x.reshape(x.size()[::-1]).shape == (3, 2) and x.view(x.shape).shape == (2, 3)
    assert x.new_zeros(x.size()).shape == (2, 3) and mf.randn(x.shape).shape == (2, 3)
    assert mf.zeros(2, 3).expand(mf.Size([4, 2, 3])).shape == (4, 2, 3)


# grad_fn ---------------------------------------------------------------------------------------

def test_grad_fn_is_none_for_leaves_and_names_the_call_otherwise():
    a = mf.tensor([[1.0, 2.0]], requires_grad=True)
    b = mf.tensor([[3.0], [4.0]], requires_grad=True)
    assert a.grad_fn is None and mf.tensor([1.0]).grad_fn is None
    assert (a + a).grad_fn.name() == "AddBackward0" and (a + 1).grad_fn.name() == "AddBackward0"
    assert (a * a).grad_fn.name() == "MulBackward0" and (a * 2).grad_fn.name() == "MulBackward0"
    assert (a @ b).grad_fn.name() == "MmBackward0" and a.sum().grad_fn.name() == "SumBackward0"
    assert a.exp().grad_fn.name() == "ExpBackward0" and a.log_softmax(-1).grad_fn.name() == "LogSoftmaxBackward0"
    y = a * 2
    assert y.grad_fn is y.grad_fn  # one object per node while held, as torch's
    assert repr(y.grad_fn).startswith("<MulBackward0 object at 0x")
    assert repr(y) == "tensor([[2., 4.]], grad_fn=<MulBackward0>)"
    assert mf.no_grad()(lambda: a * 2)().grad_fn is None


def test_next_functions_lead_to_the_leaves():
    a = mf.tensor([1.0, 2.0], requires_grad=True)
    c = mf.tensor([5.0, 6.0])  # requires no grad: no gradient flows there
    y = (a * 2 + c).sum()
    (add, index), = y.grad_fn.next_functions
    assert add.name() == "AddBackward0" and index == 0
    (mul, _), (none, zero) = add.next_functions
    assert mul.name() == "MulBackward0" and none is None and zero == 0
    (leaf, _), = mul.next_functions
    assert leaf.name() == "torch::autograd::AccumulateGrad" and type(leaf).__name__ == "AccumulateGrad"
    assert leaf.next_functions == () and leaf.variable._impl.same(a._impl)
    first, second = mf.split(a * 1, 1)
    assert second.grad_fn.next_functions[0][0].name() == "MulBackward0"


def _walk(node):
    """A grad_fn graph as nested (name, *next) tuples, leaves' AccumulateGrad by that name."""
    if node is None:
        return None
    name = node.name().replace("torch::autograd::", "")
    below = [_walk(n) for n, _ in node.next_functions]
    return (name, *below) if below else name


# torch 2.15's graphs of these calls (its _walk printed)
_TORCH_GRAPHS = [
    ("F.linear(x, w, b)", ("AddmmBackward0", "AccumulateGrad", "AccumulateGrad", ("TBackward0", "AccumulateGrad"))),
    ("F.linear(x, w)", ("MmBackward0", "AccumulateGrad", ("TBackward0", "AccumulateGrad"))),
    ("F.linear(x.detach(), w, b)", ("AddmmBackward0", "AccumulateGrad", None, ("TBackward0", "AccumulateGrad"))),
    ("F.linear(x, w.detach(), b)", ("AddmmBackward0", "AccumulateGrad", "AccumulateGrad", None)),
    ("F.linear(x.reshape(2, 2, 3), w, b)", ("UnsafeViewBackward0", ("AddmmBackward0", "AccumulateGrad", (
        "ViewBackward0", ("ViewBackward0", "AccumulateGrad")), ("TBackward0", "AccumulateGrad")))),
    ("F.conv2d(img, k, kb)", ("ConvolutionBackward0", "AccumulateGrad", "AccumulateGrad", "AccumulateGrad")),
    ("x.transpose(0, 1)", ("TransposeBackward0", "AccumulateGrad")),
    ("x.t()", ("TBackward0", "AccumulateGrad")),
    ("F.mse_loss(x, x.detach() + 1)", ("MseLossBackward0", "AccumulateGrad", None)),
    ("F.pad(img, (1, 1))", ("ConstantPadNdBackward0", "AccumulateGrad")),
    ("F.interpolate(img, scale_factor=2)", ("UpsampleNearest2DBackward0", "AccumulateGrad")),
    ("x.unsqueeze(0)", ("UnsqueezeBackward0", "AccumulateGrad")),
    ("1 - x", ("RsubBackward1", "AccumulateGrad")),
    ("x.clamp(0, 1)", ("ClampBackward1", "AccumulateGrad")),
]


@pytest.mark.parametrize("call,graph", _TORCH_GRAPHS, ids=[c for c, _ in _TORCH_GRAPHS])
def test_grad_fn_of_a_composed_op_walks_as_torch_s(call, graph):
    """The node an op records carries torch's name, and a composed op's (linear's addmm of a
    transposed weight, a loss, a convolution) next_functions lead where torch's do."""
    import meshflow.nn.functional as F
    scope = {"F": F, "x": mf.randn(4, 3, requires_grad=True), "w": mf.randn(5, 3, requires_grad=True),
             "b": mf.randn(5, requires_grad=True), "img": mf.randn(1, 2, 5, 5, requires_grad=True),
             "k": mf.randn(3, 2, 3, 3, requires_grad=True), "kb": mf.randn(3, requires_grad=True)}
    assert _walk(eval(call, scope).grad_fn) == graph


# set_printoptions ------------------------------------------------------------------------------

@pytest.fixture
def default_printing():
    yield
    mf.set_printoptions(profile="default")


def test_print_options_change_how_tensors_print(default_printing):
    x = mf.tensor([1.23456, 2.5, -3.75])
    mf.set_printoptions(precision=2)
    assert repr(x) == "tensor([ 1.23,  2.50, -3.75])"
    mf.set_printoptions(sci_mode=True)  # precision is kept until a profile resets it
    assert str(x) == "tensor([ 1.23e+00,  2.50e+00, -3.75e+00])"
    mf.set_printoptions(profile="default", sci_mode=False)
    assert repr(mf.tensor([1e-5, 1.0, 3.0])) == "tensor([0.0000, 1.0000, 3.0000])"
    mf.set_printoptions(profile="default")
    assert repr(x) == "tensor([ 1.2346,  2.5000, -3.7500])" and repr(mf.tensor([1e-5, 1.0])) == \
        "tensor([1.0000e-05, 1.0000e+00])"
    mf.set_printoptions(threshold=5, edgeitems=1)
    assert repr(mf.arange(10)) == "tensor([0,  ..., 9])"
    assert repr(mf.arange(12).reshape(3, 4)) == "tensor([[ 0,  ...,  3],\n        ...,\n        [ 8,  ..., 11]])"
    mf.set_printoptions(profile="short")
    assert repr(x) == "tensor([ 1.23,  2.50, -3.75])"
    assert repr(mf.arange(2000.0)) == "tensor([0.00e+00, 1.00e+00,  ..., 2.00e+03, 2.00e+03])"
    assert np.get_printoptions()["precision"] == 8  # NumPy's own options are left alone


def test_lines_wrap_at_the_line_width(default_printing):
    x = mf.arange(30.0).reshape(3, 10) * 1.5
    assert repr(x) == ("tensor([[ 0.0000,  1.5000,  3.0000,  4.5000,  6.0000,  7.5000,  9.0000, 10.5000,\n"
                       "         12.0000, 13.5000],\n"
                       "        [15.0000, 16.5000, 18.0000, 19.5000, 21.0000, 22.5000, 24.0000, 25.5000,\n"
                       "         27.0000, 28.5000],\n"
                       "        [30.0000, 31.5000, 33.0000, 34.5000, 36.0000, 37.5000, 39.0000, 40.5000,\n"
                       "         42.0000, 43.5000]])")
    mf.set_printoptions(linewidth=40)
    assert repr(mf.arange(8.0) * 1.5) == ("tensor([ 0.0000,  1.5000,  3.0000,\n"
                                          "         4.5000,  6.0000,  7.5000,\n"
                                          "         9.0000, 10.5000])")
    assert repr(mf.tensor([float("nan"), 1.0, 2.0])) == "tensor([nan, 1., 2.])"
    assert repr(mf.tensor([True, False])) == "tensor([ True, False])"


# Exception classes ----------------------------------------------------------------------------

def test_op_errors_are_runtime_errors_and_value_errors():
    a, b = mf.zeros(2, 3), mf.zeros(4, 5)
    for call in (lambda: a + b, lambda: a @ b, lambda: a.reshape(4, 4), lambda: a.matmul(mf.zeros(2, dtype=mf.int64))):
        with pytest.raises(RuntimeError) as caught:
            call()
        assert isinstance(caught.value, ValueError) and isinstance(caught.value, mf.OpError)


def test_indices_out_of_range_are_index_errors():
    x = mf.zeros(2, 3)
    for call in (lambda: x.sum(5), lambda: x.transpose(0, 5), lambda: mf.cat([x, x], 5),
                 lambda: x[mf.tensor([7])].numpy(), lambda: x.gather(0, mf.tensor([[7]])).numpy(),
                 lambda: nn.Embedding(10, 5)(mf.tensor([1, 12])).numpy(),
                 lambda: nn.functional.cross_entropy(x, mf.tensor([0, 7])).item()):
        with pytest.raises(IndexError) as caught:
            call()
        # and what they were before (ValueError), and RuntimeError as torch's gather raises
        assert isinstance(caught.value, ValueError) and isinstance(caught.value, RuntimeError)
        assert isinstance(caught.value, mf.OpIndexError)


def test_wrong_argument_types_are_type_errors():
    x = mf.zeros(2, 3)
    for call in (lambda: x.reshape("a"), lambda: mf.add(x, [1, 2]), lambda: x + "a", lambda: mf.matmul(x, np.ones(3))):
        with pytest.raises(TypeError):
            call()


@pytest.mark.parametrize("layer, input, message", [
    (lambda: nn.Linear(10, 5), (2, 7), r"Linear: input.size\(-1\) must be equal to in_features. Expected 10, got 7"),
    (lambda: nn.LSTM(10, 5), (3, 2, 7), r"LSTM: input.size\(-1\) must be equal to input_size. Expected 10, got 7"),
    (lambda: nn.GRU(10, 5, batch_first=True), (2, 3, 7), r"input_size. Expected 10, got 7"),
    (lambda: nn.RNN(10, 5), (3, 7), r"RNN: input.size\(-1\) must be equal to input_size. Expected 10, got 7"),
    (lambda: nn.Conv2d(3, 5, 3), (1, 4, 8, 8), r"Conv2d: .*in_channels. Expected 3, got 4"),
    (lambda: nn.Conv2d(3, 5, 3), (4, 8, 8), r"Conv2d: .*in_channels. Expected 3, got 4"),
    (lambda: nn.Conv1d(3, 5, 3), (1, 4, 8), r"Conv1d: .*in_channels. Expected 3, got 4"),
    (lambda: nn.BatchNorm2d(10), (2, 7, 4, 4), r"BatchNorm2d: .*num_features. Expected 10, got 7"),
    (lambda: nn.BatchNorm1d(10), (2, 7), r"BatchNorm1d: .*num_features. Expected 10, got 7"),
    (lambda: nn.LayerNorm(10), (2, 7), r"normalized_shape \[10\]"),
], ids=["linear", "lstm", "gru", "rnn", "conv2d", "conv2d-unbatched", "conv1d", "batchnorm2d", "batchnorm1d",
        "layernorm"])
def test_a_layer_names_its_own_argument_for_a_wrong_input(layer, input, message):
    with pytest.raises(RuntimeError, match=message) as caught:
        layer()(mf.zeros(*input))
    assert isinstance(caught.value, ValueError)  # as meshflow raised before


# item() -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype, values", DTYPES, ids=lambda v: getattr(v, "name", ""))
def test_item_is_the_python_number_of_the_value(dtype, values):
    """As torch: a bool, an int or a float (bfloat16 and float16 too), equal to the value's."""
    for shape in [(), (1,), (1, 1)]:
        x = mf.tensor(values[2], dtype=dtype).reshape(shape)
        expected = x.numpy().reshape(()).item()
        got = x.item()
        assert type(got) is type(expected) and got == expected, (shape, got, expected)
    assert type(mf.tensor(values[2], dtype=dtype).item()) is {"bool": bool, "int32": int, "int64": int}.get(
        dtype.name, float)


def test_item_of_more_or_fewer_elements_than_one_is_a_value_error():
    for shape, shown in [((2, 3), "(2, 3)"), ((0,), "(0,)"), ((3,), "(3,)"), ((1, 2), "(1, 2)")]:
        with pytest.raises(ValueError, match=f"item\\(\\) takes a tensor of one element; this one has shape {re.escape(shown)}$"):
            mf.zeros(shape).item()
