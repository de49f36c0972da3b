"""bfloat16 and float16 as arithmetic dtypes, as PyTorch's: every op takes them, computing
in float32 and rounding its result once (ops with their own half kernels, matmul and
attention, accumulate in float32 and round once too); models run in them end to end
(model.to(mf.bfloat16), model.half()), with gradients in the parameters' dtype; and
mf.autocast returns torch's dtypes (its lower-precision list in the autocast dtype, its
float32 list in float32, the rest by promotion). The references are NumPy: float32 values
rounded to float16 by NumPy, to bfloat16 by bfloat16_reference (both to nearest even)."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from bfloat16_reference import rounded

HALVES = [mf.bfloat16, mf.float16]
RNG = np.random.default_rng(11)


def round_to(dtype, x):
    """float32 values rounded to `dtype` (a half), as float32: the reference's one rounding."""
    x = np.asarray(x, np.float32)
    if dtype == mf.bfloat16:
        return rounded(x.reshape(-1)).reshape(x.shape)
    return x.astype(np.float16).astype(np.float32)


def half_values(dtype, shape, low=-2.0, high=2.0):
    """Random values exactly representable in `dtype`, as float32."""
    return round_to(dtype, RNG.uniform(low, high, shape).astype(np.float32))


def as_float32(t):
    return t.numpy().astype(np.float32)


# op: a function of meshflow tensors (one op, or steps that are exact in the half: abs, * 2,
# indexing); each is checked on half inputs against the same op on their (exact) float32
# values, rounded once.
UNARY = {
    "neg": lambda x: -x, "abs": lambda x: x.abs(), "exp": lambda x: x.exp(), "log": lambda x: x.abs().log(),
    "sqrt": lambda x: x.abs().sqrt(), "rsqrt": lambda x: x.abs().rsqrt(), "tanh": lambda x: x.tanh(),
    "sigmoid": lambda x: x.sigmoid(), "sin": lambda x: x.sin(), "relu": F.relu, "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"), "silu": F.silu, "softplus": F.softplus,
    "erf": lambda x: x.erf(), "reciprocal": lambda x: x.reciprocal(), "round": lambda x: (x * 4).round(),
    "pow_scalar": lambda x: x ** 2, "rpow": lambda x: 2.0 ** x, "mul_scalar": lambda x: x * 0.1,
    "add_scalar": lambda x: x + 0.3, "div_scalar": lambda x: x / 3, "rdiv": lambda x: 1.0 / x,
    "softmax": lambda x: F.softmax(x, dim=-1), "log_softmax": lambda x: F.log_softmax(x, dim=-1),
    "sum": lambda x: x.sum(), "sum_dim": lambda x: x.sum(1), "mean": lambda x: x.mean(0), "amax": lambda x: x.amax(1),
    "prod": lambda x: x.prod(1), "cumsum": lambda x: x.cumsum(1), "var": lambda x: x.var(1),
    "norm": lambda x: x.norm(), "sort": lambda x: x.sort(1)[0], "flip": lambda x: x.flip(0),
    "clamp": lambda x: x.clamp(-0.5, 0.5), "where": lambda x: mf.where(x > 0, x, x * 2),
    "layer_norm": lambda x: F.layer_norm(x, (x.shape[-1],)), "transpose": lambda x: x.t() * 1,
    "index": lambda x: x[mf.tensor([2, 0])] + 0, "mask": lambda x: x[x > 0] * 1, "cat": lambda x: mf.cat([x, x]),
    "matmul": lambda x: x @ x.t(), "cross_entropy": lambda x: F.cross_entropy(x, mf.tensor([1, 0, 3, 2, 4, 1])),
    "mse": lambda x: F.mse_loss(x, x * 0.5), "dropout_eval": lambda x: F.dropout(x, 0.5, training=False),
    "logsumexp": lambda x: x.logsumexp(1),
}
BINARY = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
          "div": lambda a, b: a / b, "maximum": mf.maximum, "atan2": mf.atan2,
          "pow": lambda a, b: a.abs() ** b}


@pytest.mark.parametrize("dtype", HALVES, ids=str)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ops_compute_in_float32_and_round_once(name, dtype):
    x = half_values(dtype, (6, 8))
    got = UNARY[name](mf.tensor(x, dtype=dtype))
    want = UNARY[name](mf.tensor(x))
    assert got.dtype == dtype and want.dtype == mf.float32
    np.testing.assert_array_equal(as_float32(got), round_to(dtype, want.numpy()))


@pytest.mark.parametrize("dtype", HALVES, ids=str)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_ops_compute_in_float32_and_round_once(name, dtype):
    a, b = half_values(dtype, (5, 7)), half_values(dtype, (7,))
    got = BINARY[name](mf.tensor(a, dtype=dtype), mf.tensor(b, dtype=dtype))
    want = BINARY[name](mf.tensor(a), mf.tensor(b))
    assert got.dtype == dtype
    np.testing.assert_array_equal(as_float32(got), round_to(dtype, want.numpy()))


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_values_against_numpy(dtype):
    """The float32 reference itself is NumPy's (to float32's rounding, so within one half ulp)."""
    x = half_values(dtype, (64,), 0.1, 4.0)
    t = mf.tensor(x, dtype=dtype)
    for got, want in ((t.exp(), np.exp(x)), (t.sum(), x.sum()), (t.log(), np.log(x)), (t @ t, np.dot(x, x)),
                      (t.sigmoid(), 1 / (1 + np.exp(-x)))):
        ulp = 2.0 ** -8 if dtype == mf.bfloat16 else 2.0 ** -11
        np.testing.assert_allclose(as_float32(got), want, rtol=ulp * 1.01)
    np.testing.assert_array_equal((t + t).numpy().astype(np.float32), round_to(dtype, x + x))
    if dtype == mf.float16:  # NumPy's own float16 arithmetic rounds each op once, from float32
        h = x.astype(np.float16)
        np.testing.assert_array_equal((t * t).numpy(), h * h)


def test_promotion_as_torch():
    b, h, f = mf.ones(3, dtype=mf.bfloat16), mf.ones(3, dtype=mf.float16), mf.ones(3)
    assert (b + h).dtype == mf.float32 and (b + f).dtype == mf.float32 and (h * f).dtype == mf.float32
    assert (b + 1.5).dtype == mf.bfloat16 and (h * 2).dtype == mf.float16
    assert (b + mf.tensor(2.0)).dtype == mf.bfloat16  # a 0-d float32 tensor: a lower priority
    assert (mf.ones(3, dtype=mf.int64) + b).dtype == mf.bfloat16
    assert (b > 0).dtype == mf.bool and (b == h).dtype == mf.bool
    assert mf.result_type(b, h) == mf.float32


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_creation_ops_make_halves(dtype):
    assert mf.zeros(2, 3, dtype=dtype).dtype == dtype
    np.testing.assert_array_equal(mf.full((2,), 0.1, dtype=dtype).numpy().astype(np.float32), round_to(dtype, [0.1] * 2))
    np.testing.assert_array_equal(mf.arange(0, 1, 0.25, dtype=dtype).numpy().astype(np.float32), [0, .25, .5, .75])
    r = mf.randn(100, dtype=dtype)
    assert r.dtype == dtype and 0.5 < float(r.float().std()) < 1.5
    assert mf.ones_like(r).dtype == dtype and mf.rand(3, dtype=dtype).dtype == dtype


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_gradients_are_in_the_inputs_dtype_and_computed_in_float32(dtype):
    x = half_values(dtype, (4, 6))
    w = half_values(dtype, (5, 6))
    xh, wh = mf.tensor(x, dtype=dtype, requires_grad=True), mf.tensor(w, dtype=dtype, requires_grad=True)
    (F.gelu(xh @ wh.t()).sum()).backward()
    assert xh.grad.dtype == dtype and wh.grad.dtype == dtype
    xf, wf = mf.tensor(x, requires_grad=True), mf.tensor(w, requires_grad=True)
    (F.gelu(xf @ wf.t()).sum()).backward()
    tol = 2.0 ** -6 if dtype == mf.bfloat16 else 2.0 ** -9  # a few roundings of intermediate results
    np.testing.assert_allclose(as_float32(xh.grad), xf.grad.numpy(), rtol=tol, atol=tol)
    np.testing.assert_allclose(as_float32(wh.grad), wf.grad.numpy(), rtol=tol, atol=tol)


class Zoo(nn.Module):
    """One of every common layer, on an image batch [N, 3, 8, 8] and a sequence batch."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.gn = nn.GroupNorm(2, 8)
        self.pool = nn.MaxPool2d(2)
        self.avg = nn.AdaptiveAvgPool2d(1)
        self.emb = nn.Embedding(20, 16)
        self.lstm = nn.LSTM(16, 16, batch_first=True)
        self.gru = nn.GRU(16, 16, batch_first=True)
        self.rnn = nn.RNN(16, 16, batch_first=True)
        self.attn = nn.MultiheadAttention(16, 2, batch_first=True)
        self.ln = nn.LayerNorm(16)
        self.rms = nn.RMSNorm(16)
        self.drop = nn.Dropout(0.1)
        self.head = nn.Linear(8 + 16, 5)

    def forward(self, image, tokens):
        x = self.avg(self.pool(F.relu(self.gn(self.bn(self.conv(image)))))).flatten(1)
        s = self.emb(tokens)
        s, _ = self.lstm(s)
        s, _ = self.gru(s)
        s, _ = self.rnn(s)
        a, _ = self.attn(s, s, s, need_weights=False)
        s = self.rms(self.ln(s + a))
        s = F.scaled_dot_product_attention(s.unsqueeze(1), s.unsqueeze(1), s.unsqueeze(1), is_causal=True).squeeze(1)
        return self.head(self.drop(mf.cat([x, s.mean(1)], dim=1)))


def zoo_inputs():
    return mf.tensor(RNG.standard_normal((4, 3, 8, 8)).astype(np.float32)), mf.tensor(RNG.integers(0, 20, (4, 6)))


@pytest.mark.parametrize("dtype", HALVES, ids=str)
@pytest.mark.parametrize("training", [False, True])
def test_every_layer_runs_in_the_half(dtype, training):
    mf.manual_seed(0)
    model = Zoo()
    image, tokens = zoo_inputs()
    model.train(training)
    mf.manual_seed(1)
    want = model(image, tokens)
    want.sum().backward() if training else None
    reference = {n: p.grad.numpy() for n, p in model.named_parameters()} if training else {}
    model.zero_grad()
    half = model.half() if dtype == mf.float16 else model.bfloat16()
    assert half is model and all(p.dtype == dtype for p in model.parameters())
    assert model.bn.running_mean.dtype == dtype and model.bn.num_batches_tracked.dtype == mf.int64
    mf.manual_seed(1)
    got = model(image.to(dtype), tokens)
    assert got.dtype == dtype
    tol = 0.1 if dtype == mf.bfloat16 else 0.02
    np.testing.assert_allclose(as_float32(got), want.numpy(), rtol=tol, atol=tol)
    if training:
        (got.float().sum()).backward()
        for name, p in model.named_parameters():
            assert p.grad.dtype == dtype, name
            if name == "conv.bias":  # zero but for rounding: the batch norm after it takes the mean out
                continue
            scale = np.abs(reference[name]).max() + 1e-3
            np.testing.assert_allclose(as_float32(p.grad) / scale, reference[name] / scale, atol=4 * tol, err_msg=name)


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_a_half_model_trains(dtype):
    mf.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.GELU(), nn.LayerNorm(32), nn.Linear(32, 3)).to(dtype)
    opt = mf.optim.AdamW(model.parameters(), lr=1e-2)
    x = mf.tensor(RNG.standard_normal((64, 8)).astype(np.float32)).to(dtype)
    y = mf.tensor(RNG.integers(0, 3, 64))
    losses = []
    for _ in range(30):
        loss = F.cross_entropy(model(x), y)
        assert loss.dtype == dtype
        loss.backward()
        opt.step()
        opt.zero_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.7 * losses[0]
    assert all(p.dtype == dtype for p in model.parameters())


# torch's autocast lists, by device type (torch.amp's documentation, "Autocast Op Reference"),
# for the ops meshflow has: what each returns for float32 inputs (lower-precision list) or
# for inputs in the autocast dtype (float32 list); None: by promotion, the input's dtype.
LOWER = ["matmul", "linear", "conv2d", "conv2d_bias", "conv1d", "conv_transpose2d", "conv_transpose1d", "bmm", "sdpa"]
FLOAT32_BOTH = ["cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "kl_div", "prod",
                "bce_with_logits", "huber_loss"]
FLOAT32_CUDA_ONLY = ["softmax", "log_softmax", "layer_norm", "group_norm", "exp", "log", "rsqrt", "pow", "sum",
                     "cumsum", "reciprocal", "normalize"]
PROMOTE = ["gelu", "relu", "tanh", "mean", "add", "batch_norm", "max_pool2d", "avg_pool2d", "dropout"]


def autocast_case(name, dtype):
    """(op, inputs): float32 inputs for the lower-precision list, `dtype` ones otherwise."""
    down = name in LOWER
    t = lambda *shape: mf.tensor(RNG.standard_normal(shape).astype(np.float32)).to(mf.float32 if down else dtype)
    target = mf.tensor([0, 1, 2, 1])
    cases = {
        "matmul": (lambda a, b: a @ b, (t(4, 5), t(5, 3))),
        "linear": (lambda x, w, b: F.linear(x, w, b), (t(4, 5), t(3, 5), t(3))),
        "conv2d": (lambda x, w: F.conv2d(x, w), (t(1, 2, 5, 5), t(3, 2, 3, 3))),
        # a layer's bias is cast with its operands (torch's), not promoting the result back
        "conv2d_bias": (F.conv2d, (t(1, 2, 5, 5), t(3, 2, 3, 3), t(3))),
        "conv1d": (F.conv1d, (t(1, 2, 5), t(3, 2, 3), t(3))),
        "conv_transpose2d": (lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2), (t(1, 2, 3, 3), t(2, 3, 3, 3), t(3))),
        "conv_transpose1d": (lambda x, w, b: F.conv_transpose1d(x, w, b, stride=2), (t(1, 2, 3), t(2, 3, 3), t(3))),
        "bmm": (mf.bmm, (t(2, 4, 5), t(2, 5, 3))),
        "sdpa": (F.scaled_dot_product_attention, (t(1, 2, 4, 8), t(1, 2, 4, 8), t(1, 2, 4, 8))),
        "cross_entropy": (lambda x: F.cross_entropy(x, target), (t(4, 3),)),
        "nll_loss": (lambda x: F.nll_loss(x, target), (t(4, 3),)),
        "mse_loss": (F.mse_loss, (t(4, 3), t(4, 3))), "l1_loss": (F.l1_loss, (t(4, 3), t(4, 3))),
        "smooth_l1_loss": (F.smooth_l1_loss, (t(4, 3), t(4, 3))), "huber_loss": (F.huber_loss, (t(4, 3), t(4, 3))),
        "kl_div": (lambda a, b: F.kl_div(a, b, reduction="batchmean"), (t(4, 3), t(4, 3))),
        "bce_with_logits": (F.binary_cross_entropy_with_logits, (t(4, 3), t(4, 3))),
        "prod": (lambda x: x.prod(), (t(4, 3),)),
        "softmax": (lambda x: F.softmax(x, -1), (t(4, 3),)), "log_softmax": (lambda x: F.log_softmax(x, -1), (t(4, 3),)),
        "layer_norm": (lambda x: F.layer_norm(x, (3,)), (t(4, 3),)),
        "group_norm": (lambda x: F.group_norm(x, 2), (t(2, 4, 3),)),
        "exp": (mf.exp, (t(4, 3),)), "log": (lambda x: x.abs().log(), (t(4, 3),)), "rsqrt": (lambda x: x.abs().rsqrt(), (t(4, 3),)),
        "pow": (lambda x: x ** 2, (t(4, 3),)), "sum": (lambda x: x.sum(), (t(4, 3),)),
        "cumsum": (lambda x: x.cumsum(0), (t(4, 3),)), "reciprocal": (lambda x: x.reciprocal(), (t(4, 3),)),
        "normalize": (F.normalize, (t(4, 3),)),
        "gelu": (F.gelu, (t(4, 3),)), "relu": (F.relu, (t(4, 3),)), "tanh": (mf.tanh, (t(4, 3),)),
        "mean": (lambda x: x.mean(), (t(4, 3),)), "add": (lambda a, b: a + b, (t(4, 3), t(4, 3))),
        "batch_norm": (lambda x: F.batch_norm(x, mf.zeros(3), mf.ones(3), training=True), (t(4, 3),)),
        "max_pool2d": (lambda x: F.max_pool2d(x, 2), (t(1, 2, 4, 4),)),
        "avg_pool2d": (lambda x: F.avg_pool2d(x, 2), (t(1, 2, 4, 4),)),
        "dropout": (lambda x: F.dropout(x, 0.5), (t(4, 3),)),
    }
    return cases[name]


def autocast_expected(name, device_type, dtype):
    if name in LOWER:
        return dtype
    if name in FLOAT32_BOTH or (name in FLOAT32_CUDA_ONLY and device_type == "cuda"):
        return mf.float32
    return dtype


class lists_of:
    """autocast with `device_type`'s lists, set directly: autocast("cuda") needs a GPU, and its
    lists apply to every device's ops (here the CPU's)."""

    def __init__(self, device_type, dtype):
        self.state = (dtype.name, device_type)

    def __enter__(self):
        self.previous = mf._C.set_autocast(*self.state)

    def __exit__(self, *exc):
        mf._C.set_autocast(*self.previous)


@pytest.mark.parametrize("device_type", ["cpu", "cuda"])
@pytest.mark.parametrize("dtype", HALVES, ids=str)
@pytest.mark.parametrize("name", LOWER + FLOAT32_BOTH + FLOAT32_CUDA_ONLY + PROMOTE)
def test_autocast_returns_torchs_dtypes(name, dtype, device_type):
    op, inputs = autocast_case(name, dtype)
    with mf.autocast(device_type, dtype=dtype) if device_type in mf.device_types() else lists_of(device_type, dtype):
        got = op(*inputs)
    assert got.dtype == autocast_expected(name, device_type, dtype)
    assert op(*inputs).dtype == (mf.float32 if name in LOWER else dtype)  # off again


def test_autocast_decorates_a_function_and_its_conv_layers_train_to_float32_weights():
    @mf.autocast("cpu", dtype=mf.bfloat16)
    def forward(model, x):
        return model(x)
    model = mf.nn.Sequential(mf.nn.Conv2d(2, 3, 3), mf.nn.ConvTranspose2d(3, 2, 2, stride=2))
    x = mf.tensor(RNG.standard_normal((1, 2, 5, 5)).astype(np.float32))
    y = forward(model, x)
    assert y.dtype == mf.bfloat16 and not mf.is_autocast_enabled()
    assert forward.__name__ == "forward"
    y.float().sum().backward()
    assert all(p.grad is not None and p.grad.dtype == mf.float32 for p in model.parameters())
    expected = model(x).detach().numpy()  # float32, off: the bfloat16 run agrees to its rounding
    np.testing.assert_allclose(y.float().detach().numpy(), expected, rtol=0.05, atol=0.05)


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_autocast_promotes_what_meets_float32(dtype):
    x, w = mf.tensor(RNG.standard_normal((4, 5)).astype(np.float32)), mf.tensor(RNG.standard_normal((3, 5)).astype(np.float32))
    with mf.autocast("cpu", dtype=dtype):
        h = F.linear(x, w)
        assert h.dtype == dtype and (h + x[:, :3]).dtype == mf.float32 and (h * 2.0).dtype == dtype
        # A bias the product's kernel does not take (broadcast from [1, 3]) is cast with it.
        assert F.linear(x, w, mf.ones(1, 3)).dtype == dtype
        # The product's value: the operands rounded to the dtype, a float32 sum, one rounding.
        want = round_to(dtype, round_to(dtype, x.numpy()) @ round_to(dtype, w.numpy()).T)
        np.testing.assert_allclose(as_float32(h), want, rtol=2.0 ** -7, atol=1e-6)


def test_autocast_defaults_to_torchs_dtype_per_device_type():
    with mf.autocast("cpu"):
        assert (mf.ones(2, 2) @ mf.ones(2, 2)).dtype == mf.bfloat16
    if "cuda" in mf.device_types():
        with mf.autocast("cuda"):
            assert (mf.ones(2, 2) @ mf.ones(2, 2)).dtype == mf.float16


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_autocast_gradients_reach_float32_weights(dtype):
    mf.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 3))
    x = mf.tensor(RNG.standard_normal((8, 6)).astype(np.float32))
    y = mf.tensor(RNG.integers(0, 3, 8))
    with mf.autocast("cpu", dtype=dtype):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    assert logits.dtype == dtype and loss.dtype == mf.float32
    loss.backward()
    assert all(p.grad.dtype == mf.float32 for p in model.parameters())
    grads = [p.grad.numpy() for p in model.parameters()]
    model.zero_grad()
    F.cross_entropy(model(x), y).backward()
    for g, p in zip(grads, model.parameters()):
        np.testing.assert_allclose(g, p.grad.numpy(), rtol=0.1, atol=0.02)


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_graph_of_a_half_model_equals_eager(dtype):
    p = mf.placement("cpu", ranks=[0])
    mf.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 4), nn.Tanh()).to(dtype)
    model.to_global(p, mf.sbp.broadcast)

    class Forward(nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model

        def build(self, x):
            return F.softmax(self.model(x) * 2 + 1, dim=-1)

    x = mf.tensor(RNG.standard_normal((32, 8)).astype(np.float32), placement=p, sbp=mf.sbp.broadcast).to(dtype)
    eager = F.softmax(model(x) * 2 + 1, dim=-1)
    traced = Forward()(x)
    assert traced.dtype == dtype
    np.testing.assert_array_equal(traced.numpy(), eager.numpy())


@pytest.mark.parametrize("dtype", HALVES, ids=str)
def test_the_test_device_equals_the_cpu(dtype):
    mf.manual_seed(0)
    model = Zoo().to(dtype).eval()
    image, tokens = zoo_inputs()
    on_cpu = model(image.to(dtype), tokens)
    model.to("testdev")
    on_dev = model(image.to(dtype).to("testdev"), tokens.to("testdev"))
    assert on_dev.dtype == dtype and on_dev.device == mf.device("testdev", 0)
    np.testing.assert_array_equal(on_dev.to("cpu").numpy(), on_cpu.numpy())
