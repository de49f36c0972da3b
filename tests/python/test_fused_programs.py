"""Graph mode's fused chains as chain programs (meshflow/ops/chain_program.h), the way a GPU
runs them: on the test device the one interpreter runs on the host, so these check, without a
GPU, what a GPU's fused chains compute. Graph == eager on the device: bitwise, but for the ops
whose float32 CPU kernels use fast_math.h (exp, tanh, sigmoid, gelu, silu and their
gradients), within a few ulps of the interpreter's functors. A chain a program cannot
express stays unfused and equal to eager bit for bit. test_cuda.py runs the same on a GPU;
test_device.py's training steps run the backward ops' chains (gelu_backward, tanh_backward)."""

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F

ROWS, COLS = 37, 130  # a row count and a row length that no block or vector width divides

# name: (chain of x [ROWS, COLS], b [COLS], r [ROWS, 1], s [] (a 0-d tensor); their dtype;
#        whether it uses fast_math ops)
CHAINS = {
    "bias+gelu": (lambda x, b, r, s: F.gelu(x + b), np.float32, True),
    "activations": (lambda x, b, r, s: mf.tanh(F.silu(x) * mf.sigmoid(x)) + F.relu(x - b), np.float32, True),
    "scalars and clamps": (lambda x, b, r, s: mf.clamp(((x * 2.0 + 1.0) / 3.0) ** 2, min=0.25) - F.hardtanh(x * b),
                           np.float32, False),
    "rows and 0-d": (lambda x, b, r, s: mf.maximum(x - r, s) * b + mf.sqrt(mf.abs(r)), np.float32, False),
    "comparisons and where": (lambda x, b, r, s: mf.where((x > 0) & (b < 0.5), x, x * 0.1) + (x == s).float(),
                              np.float32, False),
    "bfloat16 casts": (lambda x, b, r, s: ((x.to(mf.bfloat16) + b.to(mf.bfloat16)).relu() * 3.0).float() + x,
                       np.float32, False),
    "float16 casts": (lambda x, b, r, s: (mf.maximum(x.to(mf.float16) * b.to(mf.float16), s.to(mf.float16)) - 1.0)
                      .to(mf.bfloat16).float(), np.float32, False),
    "float64": (lambda x, b, r, s: mf.where(x > 0.5, mf.exp(x), x * 2.0) + mf.minimum(x, b) ** 3, np.float64, False),
}


class Step(mf.nn.Graph):
    def __init__(self, f, fuse=True):
        super().__init__()
        self.f = f
        self.config.enable_fusion(fuse)

    def build(self, *args):
        return self.f(*args)


def operands(device, dtype=np.float32):
    rng = np.random.default_rng(0)
    values = [rng.standard_normal(shape).astype(dtype) for shape in [(ROWS, COLS), (COLS,), (ROWS, 1), ()]]
    values[0][0, :4] = [0.0, np.inf, -np.inf, np.nan]  # edge values through every op
    return [mf.tensor(v, device=device) for v in values]


def check_graph_equals_eager(device, name):
    """Chain `name` compiled on `device`: fused as the CPU's host loops fuse it (every chain
    the CPU fuses is one program), equal to eager on the device."""
    f, dtype, fast_math = CHAINS[name]
    args = operands(device, dtype)
    step, on_cpu = Step(f), Step(f)
    got = step(*args)
    expected = f(*args)
    on_cpu(*operands("cpu", dtype))
    assert got.device.type == device and got.dtype == expected.dtype
    fused = {k: step.compile_stats()[k] for k in ("fused_chains", "fused_ops")}
    assert fused == {k: on_cpu.compile_stats()[k] for k in ("fused_chains", "fused_ops")} and fused["fused_chains"] >= 1
    if device != "testdev":  # a GPU's eager kernels compute as its fused ones, up to its compiler's contractions
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-5, atol=1e-6)
    elif fast_math:
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=4e-6, atol=1e-6)
    else:
        assert got.numpy().tobytes() == expected.numpy().tobytes()


@pytest.mark.parametrize("name", list(CHAINS))
def test_fused_programs_equal_eager_on_the_test_device(name):
    check_graph_equals_eager("testdev", name)


@pytest.mark.parametrize("f", [
    lambda x: (x + 1.0).double() * 2.0,  # float32 -> float64: a program has one compute type
    lambda x: ((x * 10.0).int() + 3) * 5,  # integers: a program holds floats and bools only
    lambda x: mf.lgamma(x * x + 1.0) * 2.0,  # lgamma: no opcode (the special functions)
], ids=["mixed float widths", "integers", "lgamma"])
def test_a_chain_a_program_cannot_express_stays_unfused_and_equal(f):
    x, host = operands("testdev")[0], operands("cpu")[0]
    on_cpu, on_dev = Step(f), Step(f)
    assert on_cpu(host).numpy().tobytes() == f(host).numpy().tobytes()
    got = on_dev(x)
    assert got.numpy().tobytes() == f(x).numpy().tobytes()
    assert on_dev.compile_stats()["fused_ops"] < on_cpu.compile_stats()["fused_ops"]


def test_a_chain_longer_than_a_program_splits():
    """A program holds at most 32 instructions: 40 ops make two fused chains."""
    def f(x):
        for k in range(40):
            x = x * 0.5 + 1.0 if k % 2 else F.relu(x)
        return x

    x = operands("testdev")[0]
    step = Step(f)
    got = step(x)
    assert got.numpy().tobytes() == f(x).numpy().tobytes()
    stats = step.compile_stats()
    assert stats["fused_ops"] == 60 and stats["fused_chains"] == 2


UNARY = ["neg", "abs", "trunc", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "sign", "round", "frac", "sin", "cos",
         "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc", "log1p", "expm1",
         "log2", "log10", "exp2", "reciprocal"]
BINARY = ["add", "sub", "mul", "maximum", "minimum", "pow", "atan2", "hypot", "copysign"]
FAST_MATH = {"exp", "tanh", "sigmoid"}


@pytest.mark.parametrize("name", UNARY + BINARY)
def test_every_opcode_computes_its_op(name):
    """Each op in a chain of three (its input scaled first, its result scaled after): fused
    into one program on the test device, equal to the op's eager kernels."""
    op = getattr(mf, name)
    f = (lambda x, b: op(x * 0.75) * 2.0) if name in UNARY else (lambda x, b: op(x * 0.75, b) * 2.0)
    x, b = operands("testdev")[:2]
    step = Step(f)
    got, expected = step(x, b), f(x, b)
    assert step.compile_stats()["fused_ops"] == 3
    if name in FAST_MATH:
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=4e-6, atol=1e-6)
    else:
        assert got.numpy().tobytes() == expected.numpy().tobytes()
