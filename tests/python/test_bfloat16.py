"""bfloat16 in one process: the dtype and its rounding, casts, NumPy interop, printing,
checkpoints, matmul's float32 accumulation, and mf.autocast (matmuls in bfloat16, returning
bfloat16 as torch's; gradients back to float32; graph mode traces it). Every op's values and
dtypes: test_half.py. Layouts of several ranks: distributed/test_dist_bfloat16.py."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from bfloat16_reference import rounded

BF16 = mf.bfloat16
RNG = np.random.default_rng(7)


def test_the_dtype():
    assert repr(BF16) == "meshflow.bfloat16" and mf._dtype.to_dtype("bfloat16") == BF16
    t = mf.tensor([1.5, -2.0], dtype=BF16)
    assert t.dtype == BF16 and t.numpy().dtype == np.float32
    assert "dtype=meshflow.bfloat16" in repr(t)


def test_rounds_to_nearest_even():
    ulp = 2.0 ** -7  # at 1.0
    values = np.array([1 + ulp / 2, 1 + 1.5 * ulp, 1 + ulp / 2 + 2 ** -20, -(1 + ulp / 2), 3.14159265, 1e-40,
                       np.float32(3.4028235e38), np.inf, -np.inf, 0.0, -0.0], np.float32)
    got = mf.tensor(values, dtype=BF16).numpy()
    np.testing.assert_array_equal(got[:4], [1.0, 1 + 2 * ulp, 1 + ulp, -1.0])  # ties to even; above a tie up
    np.testing.assert_array_equal(got, rounded(values))
    assert np.isinf(got[6]) and np.signbit(got[10])  # past the largest bfloat16: inf; -0 stays -0
    assert np.isnan(mf.tensor([np.nan], dtype=BF16).numpy()[0])


@pytest.mark.parametrize("dtype", [mf.float32, mf.float64, mf.int32, mf.int64])
def test_casts_to_and_from_every_dtype(dtype):
    values = np.array([0, 1, -3, 100, 256, -1024], dtype.numpy)
    b = mf.tensor(values).to(BF16)
    assert b.dtype == BF16
    np.testing.assert_array_equal(b.numpy(), values.astype(np.float32))  # all exact in bfloat16
    back = b.to(dtype)
    assert back.dtype == dtype
    np.testing.assert_array_equal(back.numpy(), values)
    np.testing.assert_array_equal(mf.tensor([2.75, -7.5], dtype=BF16).to(mf.int32).numpy(), [2, -7])  # truncates


def test_shape_ops_move_bfloat16():
    x = rounded(RNG.standard_normal((4, 6)))
    b = mf.tensor(x, dtype=BF16)
    np.testing.assert_array_equal(b.reshape(6, 4).numpy(), x.reshape(6, 4))
    np.testing.assert_array_equal(b.permute(1, 0).numpy(), x.T)
    np.testing.assert_array_equal(b[1:3].numpy(), x[1:3])
    np.testing.assert_array_equal(mf.cat([b, b], dim=1).numpy(), np.concatenate([x, x], 1))


def test_ops_that_compute_elementwise_take_bfloat16():
    b = mf.tensor([1.0, 2.0], dtype=BF16)
    assert (b + b).dtype == BF16 and b.exp().dtype == BF16 and F.softmax(b, dim=0).dtype == BF16
    np.testing.assert_array_equal(b.sum().numpy(), 3.0)
    assert mf.zeros(2, dtype=BF16).dtype == BF16  # the op table: test_half.py


@pytest.mark.parametrize("sa, sb, kw", [((33, 20), (20, 17), {}), ((20, 33), (20, 17), {"transpose_a": True}),
                                        ((33, 20), (17, 20), {"transpose_b": True}),
                                        ((3, 2, 9, 8), (3, 1, 8, 5), {}), ((4, 9, 8), (8, 5), {})])
def test_matmul_accumulates_in_float32(sa, sb, kw):
    a, b = rounded(RNG.standard_normal(sa)), rounded(RNG.standard_normal(sb))
    ta = np.swapaxes(a, -1, -2) if kw.get("transpose_a") else a
    tb = np.swapaxes(b, -1, -2) if kw.get("transpose_b") else b
    exact = np.matmul(ta.astype(np.float64), tb.astype(np.float64))
    A, B = mf.tensor(a, dtype=BF16), mf.tensor(b, dtype=BF16)
    c = mf.matmul(A, B, **kw)
    assert c.dtype == BF16
    # One rounding, of a float32 sum: within half a bfloat16 ulp (2^-8 relative).
    np.testing.assert_allclose(c.numpy(), exact, rtol=2 ** -8 * 1.01, atol=1e-5)
    wide = mf._tensor.apply("matmul", [A, B], dict(kw, float32_out=True))[0]
    assert wide.dtype == mf.float32
    np.testing.assert_allclose(wide.numpy(), exact, rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="float32_out is for bfloat16 inputs"):
        mf._tensor.apply("matmul", [mf.tensor(a), mf.tensor(b)], dict(kw, float32_out=True))


def test_checkpoints_keep_the_bits(tmp_path):
    x = mf.tensor(RNG.standard_normal((5, 3)), dtype=BF16)
    g = mf.tensor(RNG.standard_normal((4, 2)), dtype=BF16, placement=mf.placement("cpu", ranks=[0]),
                  sbp=mf.sbp.split(0))
    mf.save({"x": x, "g": g}, tmp_path / "ckpt")
    loaded = mf.load(tmp_path / "ckpt")
    for name, t in (("x", x), ("g", g)):
        assert loaded[name].dtype == BF16
        np.testing.assert_array_equal(loaded[name].numpy(), t.numpy())
    assert np.load(tmp_path / "ckpt" / "t0.npy").dtype == np.uint16  # stored as bits


def linear_model():
    mf.manual_seed(3)
    return nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))


def test_autocast_runs_matmuls_in_bfloat16_and_returns_it():
    x = mf.tensor(RNG.standard_normal((8, 16)).astype(np.float32))
    model = linear_model()
    with mf.autocast("cpu", dtype=mf.bfloat16):
        assert mf._autocast.autocast_dtype() == BF16
        y = model(x)
        probabilities = F.softmax(y, dim=-1)
        with mf.autocast("cpu", enabled=False):
            assert mf._autocast.autocast_dtype() is None
            exact = model(x)
    assert mf._autocast.autocast_dtype() is None
    # torch's: linear in bfloat16; softmax (not on the CPU's float32 list) follows its input.
    assert y.dtype == BF16 and probabilities.dtype == BF16 and exact.dtype == mf.float32
    # The same as casting every operand by hand, and close to float32.
    w1, b1, w2, b2 = [p.detach().to(BF16) for p in model.parameters()]
    by_hand = F.linear(F.gelu(F.linear(x.to(BF16), w1, b1)), w2, b2)
    np.testing.assert_array_equal(y.numpy(), by_hand.numpy())
    np.testing.assert_allclose(y.numpy(), exact.numpy(), rtol=0.05, atol=0.05)
    assert not np.array_equal(y.numpy(), exact.numpy())


def test_autocast_gradients_reach_the_float32_weights():
    x = mf.tensor(RNG.standard_normal((8, 16)).astype(np.float32))
    model, reference = linear_model(), linear_model()
    with mf.autocast("cpu", dtype=mf.bfloat16):
        model(x).pow(2).mean().backward()
    reference(x).pow(2).mean().backward()
    for p, r in zip(model.parameters(), reference.parameters()):
        assert p.dtype == mf.float32 and p.grad.dtype == mf.float32
        np.testing.assert_allclose(p.grad.numpy(), r.grad.numpy(), rtol=0.1, atol=0.02)


def test_autocast_gradients_are_unrounded_products_of_the_bfloat16_operands():
    # y = x @ w^T on bfloat16 casts: dx = dy @ w and dw = dy^T @ x, with dy, w and x rounded
    # to bfloat16 and the products accumulated and kept in float32 (never rounded to bfloat16).
    x = mf.tensor(RNG.standard_normal((8, 16)).astype(np.float32), requires_grad=True)
    w = mf.tensor(RNG.standard_normal((4, 16)).astype(np.float32), requires_grad=True)
    dy = RNG.standard_normal((8, 4)).astype(np.float32)
    with mf.autocast("cpu", dtype=mf.bfloat16):
        y = mf.matmul(x, w, transpose_b=True)
    (y * mf.tensor(dy)).sum().backward()
    xs, ws, dys = (rounded(a) for a in (x.numpy(), w.numpy(), dy))
    np.testing.assert_allclose(x.grad.numpy(), dys @ ws, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(w.grad.numpy(), dys.T @ xs, rtol=1e-6, atol=1e-6)
    for g in (x.grad.numpy(), w.grad.numpy()):
        assert not np.array_equal(g, rounded(g))  # float32 values, not bfloat16 ones widened


def test_autocast_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="device_type 'tpu' is not supported; expected one of cpu, testdev"):
        mf.autocast("tpu")
    with pytest.raises(ValueError, match="dtype meshflow.float64 is not supported"):
        mf.autocast("cpu", dtype=mf.float64)


def test_graph_traced_under_autocast_equals_eager():
    p = mf.placement("cpu", ranks=[0])
    model = linear_model()
    model.to_global(p, mf.sbp.broadcast)

    class Forward(nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model

        def build(self, x):
            return self.model(x)

    x = mf.tensor(RNG.standard_normal((8, 16)).astype(np.float32), placement=p, sbp=mf.sbp.broadcast)
    graph = Forward()
    with mf.autocast("cpu", dtype=mf.bfloat16):
        eager = model(x).numpy()
        traced = graph(x).numpy()
    np.testing.assert_array_equal(traced, eager)
    # Without autocast the graph compiles again, in float32.
    np.testing.assert_array_equal(graph(x).numpy(), model(x).numpy())
    assert not np.array_equal(graph(x).numpy(), eager)


# torch's autocast cache: a parameter is cast once in a region, again only after a write to it.
class Tied(nn.Module):
    """One weight in two products (a tied embedding and head, an encoder run twice)."""

    def __init__(self):
        super().__init__()
        mf.manual_seed(5)
        self.lin = nn.Linear(16, 16)

    def forward(self, x):
        return self.lin(mf.tanh(self.lin(x))).float().sum()


def tied_grads(cache, micro_batches, x):
    model = Tied()
    with mf.autocast("cpu", dtype=BF16, cache_enabled=cache):
        for part in x.chunk(micro_batches):
            model(part).backward()  # a backward per micro-batch, inside the region
        cached = mf._C.autocast_cached_casts()
    assert mf._C.autocast_cached_casts() == 0  # the region's exit drops it
    return cached, [p.grad.numpy() for p in model.parameters()]


def test_autocast_caches_a_parameters_cast_within_the_region():
    x = mf.tensor(RNG.standard_normal((8, 16)).astype(np.float32))
    for micro_batches in (1, 2):
        cached, grads = tied_grads(True, micro_batches, x)
        uncached, reference = tied_grads(False, micro_batches, x)
        assert (cached, uncached) == (2, 0)  # weight and bias, each cast once for both uses
        for g, r in zip(grads, reference):
            np.testing.assert_array_equal(g, r)


def test_autocast_casts_a_parameter_again_after_a_write():
    x = mf.tensor(RNG.standard_normal((4, 16)).astype(np.float32))
    model, other = linear_model(), linear_model()
    opt = mf.optim.SGD(model.parameters(), lr=0.5)

    def fresh():  # the model's output in a region of its own, cast anew
        with mf.autocast("cpu", dtype=BF16):
            return model(x).float().numpy()

    with mf.autocast("cpu", dtype=BF16):
        model(x).float().sum().backward()
        opt.step()  # the optimizer's write
        after_step = model(x).float().numpy()
        with mf.no_grad():
            model[0].weight.mul_(-1)  # an in-place op
        after_op = model(x).float().numpy()
        model.load_state_dict(other.state_dict())
        after_load = model(x).float().numpy()
        assert mf._C.autocast_cached_casts() == 4
    np.testing.assert_array_equal(after_load, fresh())
    model.load_state_dict(other.state_dict())  # the same values: what after_op saw must differ
    assert not np.array_equal(after_op, after_load) and not np.array_equal(after_step, after_op)


def test_autocast_cache_under_no_grad_then_with_grad():
    x = mf.tensor(RNG.standard_normal((4, 16)).astype(np.float32))
    model, reference = linear_model(), linear_model()
    with mf.autocast("cpu", dtype=BF16):
        with mf.no_grad():
            model(x)  # casts cached unrecorded
        model(x).float().sum().backward()
    with mf.autocast("cpu", dtype=BF16, cache_enabled=False):
        reference(x).float().sum().backward()
    for p, r in zip(model.parameters(), reference.parameters()):
        np.testing.assert_array_equal(p.grad.numpy(), r.grad.numpy())


def test_graph_traces_one_cast_per_parameter_under_autocast():
    p = mf.placement("cpu", ranks=[0])
    x = mf.tensor(RNG.standard_normal((8, 16)).astype(np.float32), placement=p, sbp=mf.sbp.broadcast)
    results = {}
    for cache in (True, False):
        model = Tied()
        model.to_global(p, mf.sbp.broadcast)
        opt = mf.optim.SGD(model.parameters(), lr=0.1)

        class Step(nn.Graph):
            def __init__(self):
                super().__init__()
                self.model = model
                self.add_optimizer(opt)
                self.config.set_gradient_accumulation_steps(2)

            def build(self, x):
                loss = self.model(x)
                loss.backward()
                return loss

        graph = Step()
        with mf.autocast("cpu", dtype=BF16, cache_enabled=cache):
            losses = [graph(x).numpy() for _ in range(3)]
        results[cache] = (losses, graph.compile_stats()["traced_nodes"], model.lin.weight.numpy())
    assert results[True][1] == results[False][1] - 2  # the weight's and the bias's second casts
    np.testing.assert_array_equal(results[True][0], results[False][0])
    np.testing.assert_array_equal(results[True][2], results[False][2])
