"""mf.nn modules in one process: parameter registration and names (nested modules,
ModuleList, Sequential, tied weights), state_dict / load_state_dict and their errors,
train / eval, Dropout, and the forward values and gradients of Linear, LayerNorm, Embedding,
GELU and ReLU against NumPy. Layouts over several ranks: distributed/test_dist_nn.py.
"""
import collections
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from meshflow import nn

S, B = mf.sbp.split, mf.sbp.broadcast


def to_float64(module):
    for p in module.parameters():
        p.data = p.double()
    return module


def random(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape)


def backward_of_weighted_sum(y, seed):
    """Runs backward on sum(y * c) for a random c (so that dL/dy = c) and returns c."""
    c = random(y.shape, seed)
    (y * mf.tensor(c, dtype=y.dtype)).sum().backward()
    return c


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 2 * width), nn.GELU(), nn.Linear(2 * width, width))


class TiedModel(nn.Module):
    """Embedding and output head share one weight, as in GPT-2."""

    def __init__(self, vocabulary=7, width=4, depth=2):
        super().__init__()
        self.embed = nn.Embedding(vocabulary, width)
        self.blocks = nn.ModuleList([Block(width) for _ in range(depth)])
        self.head = nn.Linear(width, vocabulary, bias=False)
        self.head.weight = self.embed.weight
        self.scale = 2.0  # a plain attribute, not registered


# ---------------------------------------------------------------------------------------------
# Registration, names, train / eval

def test_parameter_names_follow_the_module_tree_and_list_tied_weights_once():
    model = TiedModel()
    block = ["norm.weight", "norm.bias", "mlp.0.weight", "mlp.0.bias", "mlp.2.weight", "mlp.2.bias"]
    expected = ["embed.weight"] + [f"blocks.{i}.{name}" for i in range(2) for name in block]
    assert [name for name, _ in model.named_parameters()] == expected
    assert list(model.state_dict()) == expected + ["head.weight"]  # state_dict lists tied weights under each name
    assert len(list(model.parameters())) == len(expected)
    assert model.head.weight is model.embed.weight and model.head.bias is None
    assert all(isinstance(p, nn.Parameter) and p.requires_grad and p.is_leaf for p in model.parameters())
    assert [name for name, _ in model.named_modules()][:5] == ["", "embed", "blocks", "blocks.0", "blocks.0.norm"]
    assert model.scale == 2.0 and "scale" not in model.state_dict()
    assert list(model.children()) == [model.embed, model.blocks, model.head]
    assert len(model.blocks) == 2 and list(model.blocks)[1] is model.blocks[1] and model.blocks[-1] is model.blocks[1]
    assert len(model.blocks[0].mlp) == 3 and isinstance(model.blocks[0].mlp[1], nn.GELU)


def test_reassigning_an_attribute_changes_what_is_registered():
    linear = nn.Linear(3, 2, bias=False)
    assert [name for name, _ in linear.named_parameters()] == ["weight"]
    bias = nn.Parameter(mf.zeros(2))
    linear.bias = bias  # a parameter where a plain value (None) was
    assert linear.bias is bias
    assert [name for name, _ in linear.named_parameters()] == ["weight", "bias"]
    x = mf.ones(1, 3)
    np.testing.assert_allclose(linear(x).numpy(), x.numpy() @ linear.weight.numpy().T, rtol=1e-6)
    bias.data = mf.ones(2)
    np.testing.assert_allclose(linear(x).numpy(), x.numpy() @ linear.weight.numpy().T + 1, rtol=1e-6)
    with pytest.raises(TypeError, match=r"cannot assign 'str' as parameter 'weight' \(meshflow.nn.Parameter or None"):
        linear.weight = "not a parameter any more"  # as torch: a parameter's name takes a Parameter or None
    del linear.weight
    linear.weight = "a plain attribute now"
    assert [name for name, _ in linear.named_parameters()] == ["bias"]
    assert linear.weight == "a plain attribute now"
    sub = nn.ReLU()
    linear.extra = sub
    assert list(linear.children()) == [sub]
    linear.extra = None
    assert list(linear.children()) == [] and linear.extra is None


def test_module_misuse_raises():
    class NoInit(nn.Module):
        def __init__(self):
            self.weight = nn.Parameter(mf.zeros(2))

    with pytest.raises(AttributeError, match=r"cannot assign parameter before Module.__init__\(\) call"):
        NoInit()
    with pytest.raises(NotImplementedError, match="Module does not define forward"):
        nn.Module()(mf.zeros(2))
    with pytest.raises(AttributeError, match="'Linear' object has no attribute 'wieght'"):
        nn.Linear(2, 2).wieght


def test_sequential_takes_modules_or_an_ordered_dict_and_nothing_else():
    # As torch: an OrderedDict names the modules; a list (or any non-Module) raises instead of
    # becoming a plain attribute that forward skips (an identity network).
    first, second = nn.Linear(3, 4), nn.Linear(4, 2)
    named = nn.Sequential(collections.OrderedDict([("encoder", first), ("act", nn.ReLU()), ("head", second)]))
    assert len(named) == 3 and named[0] is first and named.head is second
    assert list(named.state_dict()) == ["encoder.weight", "encoder.bias", "head.weight", "head.bias"]
    x = mf.tensor(random((2, 3), 30), dtype=mf.float32)
    np.testing.assert_array_equal(named(x).numpy(), second(mf.relu(first(x))).numpy())
    for bad, type_name in (([first, second], "list"), (first.weight, "meshflow.nn.modules.Parameter"),
                           (np.zeros(2), "numpy.ndarray"), ({"a": first}, "dict")):
        with pytest.raises(TypeError, match=rf"Sequential: '0' is a {type_name}, not a meshflow.nn.Module"):
            nn.Sequential(bad)
    with pytest.raises(TypeError, match=r"Sequential: '1' is a function, not a meshflow.nn.Module"):
        nn.Sequential(first, mf.relu)
    with pytest.raises(TypeError, match=r"ModuleList: '1' is a int, not a meshflow.nn.Module"):
        nn.ModuleList([first, 3])
    for name in ("a.b", "", "training", "forward"):
        with pytest.raises(KeyError, match=rf"Sequential: module name '{name}' is empty, has a '.' or is an attr"):
            nn.Sequential(collections.OrderedDict([(name, first)]))


def test_arrays_in_place_of_tensors_are_named():
    # NumPy arrays (and torch tensors: any foreign type is named by its module) raise a
    # TypeError naming the type at the call, not an AttributeError on '_impl' inside.
    class FakeTorchTensor:
        pass
    FakeTorchTensor.__module__, FakeTorchTensor.__qualname__ = "torch", "Tensor"
    linear, array = nn.Linear(3, 2), np.ones((2, 3), np.float32)
    for foreign, type_name in ((array, "numpy.ndarray"), (FakeTorchTensor(), "torch.Tensor")):
        with pytest.raises(TypeError, match=rf"^\[linear\] expected a meshflow Tensor, got {type_name}$"):
            linear(foreign)
        with pytest.raises(TypeError, match=rf"^\[cross_entropy\] expected a meshflow Tensor, got {type_name}$"):
            F.cross_entropy(foreign, mf.tensor([0, 1]))
        with pytest.raises(TypeError, match=rf"^\[layer_norm\] expected a meshflow Tensor, got {type_name}$"):
            nn.LayerNorm(3)(foreign)
        with pytest.raises(TypeError, match=rf"^\[dropout\] expected a meshflow Tensor, got {type_name}$"):
            F.dropout(foreign)
        with pytest.raises(TypeError, match=rf"^\[Parameter\] expected a meshflow Tensor, got {type_name}$"):
            nn.Parameter(foreign)
        with pytest.raises(TypeError, match=rf"load_state_dict: weight is a {type_name}; expected a meshflow Tensor"):
            linear.load_state_dict({"weight": foreign, "bias": linear.bias})


def test_train_and_eval_set_every_submodule():
    model = TiedModel()
    assert all(m.training for m in model.modules())
    assert model.eval() is model
    assert not any(m.training for m in model.modules())
    model.blocks.train()
    assert model.blocks[1].mlp[0].training and not model.training and not model.embed.training
    model.train()
    assert all(m.training for m in model.modules())


def test_modules_built_after_the_same_seed_are_equal():
    mf.manual_seed(123)
    first = TiedModel()
    mf.manual_seed(123)
    second = TiedModel()
    third = TiedModel()
    for (name, a), (_, b), (_, c) in zip(first.named_parameters(), second.named_parameters(),
                                         third.named_parameters()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)
        if "norm" not in name:  # LayerNorm starts at ones and zeros
            assert not np.array_equal(a.numpy(), c.numpy()), name


def test_linear_initialization_is_uniform_within_torch_bound():
    linear = nn.Linear(64, 32)
    bound = 1 / math.sqrt(64)
    for p in (linear.weight, linear.bias):
        values = p.numpy()
        assert p.dtype == mf.float32 and np.all(np.abs(values) <= bound)
    weights = linear.weight.numpy()
    assert abs(weights.mean()) < 0.1 * bound and abs(weights.std() - bound / math.sqrt(3)) < 0.1 * bound
    embedding = nn.Embedding(200, 50).weight.numpy()
    assert abs(embedding.mean()) < 0.05 and abs(embedding.std() - 1) < 0.05


# ---------------------------------------------------------------------------------------------
# state_dict / load_state_dict

def test_load_state_dict_copies_values_into_the_same_parameters():
    source, target = TiedModel(), TiedModel()
    parameters_before = list(target.parameters())
    optimizer = mf.optim.SGD(target.parameters(), lr=0.1)
    target.load_state_dict(source.state_dict())
    assert all(a is b for a, b in zip(target.parameters(), parameters_before))
    for (name, a), (_, b) in zip(target.named_parameters(), source.named_parameters()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)
    assert target.head.weight is target.embed.weight  # still tied
    # The optimizer built before the load trains the loaded values.
    for p in target.parameters():
        p.grad = mf.ones(*p.shape)
    optimizer.step()
    np.testing.assert_allclose(target.embed.weight.numpy(), source.embed.weight.numpy() - 0.1, rtol=1e-6)


def test_load_state_dict_reports_missing_and_unexpected_keys():
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    state = dict(model.state_dict())
    replacement = mf.tensor(random((4, 3), 0), dtype=mf.float32)
    state["0.weight"] = replacement
    del state["2.bias"]
    state["3.weight"] = mf.zeros(2)
    with pytest.raises(KeyError, match=r"missing keys \['2.bias'\], unexpected keys \['3.weight'\]"):
        model.load_state_dict(state)
    assert not np.array_equal(model[0].weight.numpy(), replacement.numpy())  # nothing loaded
    bias = model[2].bias.numpy().copy()
    model.load_state_dict(state, strict=False)
    np.testing.assert_array_equal(model[0].weight.numpy(), replacement.numpy())
    np.testing.assert_array_equal(model[2].bias.numpy(), bias)


def test_load_state_dict_rejects_a_shape_mismatch():
    model = nn.Linear(3, 4)
    state = dict(model.state_dict(), weight=mf.zeros(3, 4))
    with pytest.raises(ValueError, match=r"weight has shape \(3, 4\); the module's parameter has shape \(4, 3\)"):
        model.load_state_dict(state)


@pytest.mark.parametrize("bad_bias, error", [(mf.zeros(3), ValueError), (np.zeros(2), TypeError)],
                         ids=["shape", "type"])
def test_load_state_dict_is_all_or_nothing(bad_bias, error):
    # The weight comes first and is good: it must not be assigned when the bias is refused.
    model = nn.Linear(3, 2)
    weight, bias = model.weight.numpy().copy(), model.bias.numpy().copy()
    with pytest.raises(error, match="load_state_dict: bias"):
        model.load_state_dict({"weight": mf.zeros(2, 3), "bias": bad_bias})
    np.testing.assert_array_equal(model.weight.numpy(), weight)
    np.testing.assert_array_equal(model.bias.numpy(), bias)


def test_load_state_dict_keeps_the_parameters_dtype():
    model = nn.Linear(2, 3)
    value = random((3, 2), 1)
    model.load_state_dict({"weight": mf.tensor(value), "bias": mf.tensor(np.arange(3.0))})
    assert model.weight.dtype == mf.float32 and model.bias.dtype == mf.float32
    np.testing.assert_array_equal(model.weight.numpy(), value.astype(np.float32))


def test_state_dict_survives_a_checkpoint(tmp_path):
    source, target = TiedModel(), TiedModel()
    mf.save(source.state_dict(), tmp_path / "model")
    target.load_state_dict(mf.load(tmp_path / "model"))
    for (name, a), (_, b) in zip(target.named_parameters(), source.named_parameters()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)


def test_to_global_with_an_sbp_function():
    model = nn.Sequential(nn.Linear(4, 6), nn.GELU(), nn.Linear(6, 4))
    values = {name: p.numpy().copy() for name, p in model.named_parameters()}
    seen = []

    def layout(name, p):
        seen.append((name, tuple(p.shape)))
        return S(0) if name == "0.weight" else B

    one = mf.placement("cpu", ranks=[0])
    assert model.to_global(one, layout) is model
    assert seen == [("0.weight", (6, 4)), ("0.bias", (6,)), ("2.weight", (4, 6)), ("2.bias", (4,))]
    for name, p in model.named_parameters():
        assert p.is_global and p.placement == one and p.sbp == ((S(0),) if name == "0.weight" else (B,))
        np.testing.assert_array_equal(p.numpy(), values[name])
    y = model(mf.tensor(random((3, 4), 2), dtype=mf.float32, placement=one, sbp=B))
    y.sum().backward()
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.sbp == p.sbp, name


# ---------------------------------------------------------------------------------------------
# Dropout

def test_dropout_in_eval_mode_and_with_p_zero_is_the_identity():
    x = mf.tensor(random((4, 5), 3), dtype=mf.float32)
    dropout = nn.Dropout(0.5).eval()
    np.testing.assert_array_equal(dropout(x).numpy(), x.numpy())
    np.testing.assert_array_equal(nn.Dropout(0.0)(x).numpy(), x.numpy())
    np.testing.assert_array_equal(F.dropout(x, 0.9, training=False).numpy(), x.numpy())


@pytest.mark.parametrize("p", [0.1, 0.5, 0.8])
def test_dropout_drops_about_p_and_scales_the_rest(p):
    value = random((200, 100), 4) + 10  # no zeros of its own
    x = mf.tensor(value, requires_grad=True)
    mf.manual_seed(5)
    y = nn.Dropout(p)(x)
    out = y.numpy()
    kept = out != 0
    assert abs(1 - kept.mean() - p) < 0.015  # 20000 draws: 5 standard deviations
    np.testing.assert_allclose(out[kept], value[kept] / (1 - p), rtol=1e-12)
    c = backward_of_weighted_sum(y, 6)
    np.testing.assert_allclose(x.grad.numpy(), np.where(kept, c / (1 - p), 0), rtol=1e-12)


def test_dropout_masks_come_from_the_seed():
    x = mf.ones(50, 40)
    mf.manual_seed(7)
    first, second = F.dropout(x, 0.5).numpy(), F.dropout(x, 0.5).numpy()
    mf.manual_seed(7)
    again = F.dropout(x, 0.5).numpy()
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, second)  # every call draws new numbers


@pytest.mark.parametrize("p", [-0.1, 1.5])
def test_dropout_rejects_p_out_of_range(p):
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        nn.Dropout(p)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1"):
        F.dropout(mf.ones(2), p)


def test_dropout_of_one_zeroes_everything():  # as torch's
    np.testing.assert_array_equal(nn.Dropout(1.0)(mf.ones(3)).numpy(), np.zeros(3, np.float32))


# ---------------------------------------------------------------------------------------------
# Forward values and gradients against NumPy (float64)

@pytest.mark.parametrize("batch_shape", [(5,), (2, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_forward_and_gradients(batch_shape, bias):
    linear = to_float64(nn.Linear(4, 3, bias=bias))
    w = linear.weight.numpy()
    value = random(batch_shape + (4,), 7)
    x = mf.tensor(value, requires_grad=True)
    y = linear(x)
    expected = value @ w.T + (linear.bias.numpy() if bias else 0)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-12)
    c = backward_of_weighted_sum(y, 8)
    flat_c, flat_x = c.reshape(-1, 3), value.reshape(-1, 4)
    np.testing.assert_allclose(linear.weight.grad.numpy(), flat_c.T @ flat_x, rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), c @ w, rtol=1e-12)
    if bias:
        np.testing.assert_allclose(linear.bias.grad.numpy(), flat_c.sum(0), rtol=1e-12)


def layer_norm_reference(x, w, b, eps, c):
    """(forward value, dL/dx, dL/dw, dL/db) over the last dim, for dL/dy = c."""
    mean = x.mean(-1, keepdims=True)
    inv_std = 1 / np.sqrt(x.var(-1, keepdims=True) + eps)
    normalized = (x - mean) * inv_std
    dnormalized = c * w
    dx = inv_std * (dnormalized - dnormalized.mean(-1, keepdims=True)
                    - normalized * (dnormalized * normalized).mean(-1, keepdims=True))
    batch = tuple(range(x.ndim - 1))
    return normalized * w + b, dx, (c * normalized).sum(batch), c.sum(batch)


def test_layer_norm_forward_and_gradients():
    norm = to_float64(nn.LayerNorm(6, eps=1e-3))
    w, b = random(6, 9), random(6, 10)
    norm.load_state_dict({"weight": mf.tensor(w), "bias": mf.tensor(b)})
    value = random((2, 3, 6), 11) * 3 + 1
    x = mf.tensor(value, requires_grad=True)
    y = norm(x)
    c = backward_of_weighted_sum(y, 12)
    expected, dx, dw, db = layer_norm_reference(value, w, b, 1e-3, c)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), dx, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(norm.weight.grad.numpy(), dw, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(norm.bias.grad.numpy(), db, rtol=1e-12)


def test_layer_norm_without_affine_parameters():
    norm = nn.LayerNorm((2, 3), elementwise_affine=False)
    assert list(norm.parameters()) == []
    value = random((4, 2, 3), 13)
    flat = value.reshape(4, 6)
    expected = (flat - flat.mean(-1, keepdims=True)) / np.sqrt(flat.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(norm(mf.tensor(value)).numpy(), expected.reshape(4, 2, 3), rtol=1e-10, atol=1e-12)


def test_embedding_forward_and_gradient_accumulates_repeated_rows():
    embedding = to_float64(nn.Embedding(6, 3))
    table = embedding.weight.numpy()
    indices = np.array([[1, 4, 1], [0, 1, 5]], np.int64)
    y = embedding(mf.tensor(indices))
    np.testing.assert_array_equal(y.numpy(), table[indices])
    c = backward_of_weighted_sum(y, 14)
    expected = np.zeros_like(table)
    np.add.at(expected, indices, c)
    np.testing.assert_allclose(embedding.weight.grad.numpy(), expected, rtol=1e-12)


def test_tied_weight_gradient_sums_both_uses():
    model = to_float64(TiedModel(vocabulary=5, width=3, depth=0))
    table = model.embed.weight.numpy()
    indices = np.array([3, 0, 3, 2], np.int64)
    logits = model.head(model.embed(mf.tensor(indices)))
    c = backward_of_weighted_sum(logits, 15)
    expected = c.T @ table[indices]  # as the head's weight
    np.add.at(expected, indices, c @ table)  # as the embedding table
    np.testing.assert_allclose(model.embed.weight.grad.numpy(), expected, rtol=1e-12)


def gelu_reference(x):
    erf = np.vectorize(math.erf)
    cdf = 0.5 * (1 + erf(x / math.sqrt(2)))
    return x * cdf, cdf + x * np.exp(-x * x / 2) / math.sqrt(2 * math.pi)


def test_activations_and_sequential_forward_and_gradients():
    value = random((3, 4), 16) * 2
    x = mf.tensor(value, requires_grad=True)
    y = nn.GELU()(x)
    expected, derivative = gelu_reference(value)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-12, atol=1e-14)
    c = backward_of_weighted_sum(y, 17)
    np.testing.assert_allclose(x.grad.numpy(), c * derivative, rtol=1e-10, atol=1e-14)
    r = mf.tensor(value, requires_grad=True)
    out = nn.ReLU()(r)
    np.testing.assert_array_equal(out.numpy(), np.maximum(value, 0))
    c = backward_of_weighted_sum(out, 18)
    np.testing.assert_array_equal(r.grad.numpy(), np.where(value > 0, c, 0))

    mlp = to_float64(nn.Sequential(nn.Linear(4, 5), nn.GELU(), nn.Linear(5, 2)))
    w1, b1, w2, b2 = (p.numpy() for p in mlp.parameters())
    hidden = value @ w1.T + b1
    np.testing.assert_allclose(mlp(mf.tensor(value)).numpy(), gelu_reference(hidden)[0] @ w2.T + b2, rtol=1e-12)


def test_module_zero_grad_and_no_grad():
    linear = nn.Linear(3, 2)
    with mf.no_grad():
        y = linear(mf.ones(1, 3))
    assert not y.requires_grad and y.grad_fn is None
    linear(mf.ones(1, 3)).sum().backward()
    assert linear.weight.grad is not None and linear.bias.grad is not None
    linear.zero_grad()
    assert linear.weight.grad is None and linear.bias.grad is None


# ---- torch.nn.init and torch.nn.utils.

def test_init_replaces_values_in_place_with_torchs_distributions():
    from meshflow.nn import init
    layer = nn.Linear(400, 300)
    w = layer.weight
    assert init.xavier_uniform_(w) is w and layer.weight is w
    bound = math.sqrt(6.0 / 700)
    values = w.numpy()
    assert np.abs(values).max() <= bound and values.std() == pytest.approx(bound / math.sqrt(3), rel=0.02)
    init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    assert w.numpy().std() == pytest.approx(math.sqrt(2.0 / 300), rel=0.02)
    init.kaiming_uniform_(w, a=math.sqrt(5))  # torch's Linear default
    assert np.abs(w.numpy()).max() <= 1 / math.sqrt(400)
    init.normal_(w, mean=1.0, std=0.5)
    assert w.numpy().mean() == pytest.approx(1.0, abs=0.01) and w.numpy().std() == pytest.approx(0.5, rel=0.02)
    init.uniform_(layer.bias, -0.1, 0.3)
    assert layer.bias.numpy().min() >= -0.1 and layer.bias.numpy().max() < 0.3
    init.zeros_(layer.bias)
    assert not layer.bias.numpy().any() and layer.bias.requires_grad and layer.bias.dtype == mf.float32
    init.constant_(w, 0.25)
    assert np.all(w.numpy() == 0.25)
    assert init.calculate_gain("tanh") == pytest.approx(5 / 3) and init.calculate_gain("leaky_relu", 0.2) == \
        pytest.approx(math.sqrt(2 / 1.04))
    with pytest.raises(ValueError, match="at least 2 dims"):
        init.xavier_normal_(layer.bias)
    # The optimizer holds the same tensors: it updates the new values.
    opt = mf.optim.SGD(layer.parameters(), lr=1.0)
    layer(mf.ones(2, 400)).sum().backward()
    opt.step()
    assert np.allclose(w.numpy(), 0.25 - 2.0)


def test_init_keeps_a_global_parameters_layout():
    from meshflow.nn import init
    p = mf.placement("cpu", ranks=[0])
    w = mf.tensor(np.zeros((6, 4), np.float32), placement=p, sbp=mf.sbp.split(0), requires_grad=True)
    init.ones_(w)
    assert w.sbp == (mf.sbp.split(0),) and w.placement == p and np.all(w.numpy() == 1)


def test_utils_clip_grad_norm_is_the_optimizers():
    w = mf.tensor([3.0, 4.0], requires_grad=True)
    (w * w).sum().backward()
    assert nn.utils.clip_grad_norm_([w], 1.0) == pytest.approx(10.0)
    np.testing.assert_allclose(w.grad.numpy(), [0.6, 0.8], rtol=1e-6)
