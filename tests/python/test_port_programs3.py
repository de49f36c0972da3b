"""What ported programs met (issue 37, third programs round), against NumPy: MultiheadAttention's
add_bias_kv and add_zero_attn, grouped-query attention (enable_gqa), sdpa_kernel, einsum's
sublist form, histogram, cholesky_solve / cholesky_inverse, nn.init's fan helpers, the
_foreach_* functions and load_state_dict's result type."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F

RNG = np.random.default_rng(37)


def rand(*shape):
    return RNG.standard_normal(shape)


def softmax(a):
    e = np.exp(a - a.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


# ---- MultiheadAttention's extra key positions

def mha_reference(m, q, k, v, key_padding_mask):
    """torch's multi_head_attention_forward (batch first, no dropout) in NumPy, from m's weights."""
    w, b = m.in_proj_weight.numpy(), m.in_proj_bias.numpy()
    e, h = m.embed_dim, m.num_heads
    d = e // h
    qp, kp, vp = q @ w[:e].T + b[:e], k @ w[e:2 * e].T + b[e:2 * e], v @ w[2 * e:].T + b[2 * e:]
    n, s = k.shape[0], k.shape[1]
    pad = key_padding_mask.copy()
    if m.bias_k is not None:
        kp = np.concatenate([kp, np.broadcast_to(m.bias_k.numpy(), (n, 1, e))], 1)
        vp = np.concatenate([vp, np.broadcast_to(m.bias_v.numpy(), (n, 1, e))], 1)
        pad = np.concatenate([pad, np.zeros((n, 1), bool)], 1)
    heads = lambda x: x.reshape(n, x.shape[1], h, d).transpose(0, 2, 1, 3)  # noqa: E731
    qh, kh, vh = heads(qp), heads(kp), heads(vp)
    if m.add_zero_attn:
        kh = np.concatenate([kh, np.zeros((n, h, 1, d))], 2)
        vh = np.concatenate([vh, np.zeros((n, h, 1, d))], 2)
        pad = np.concatenate([pad, np.zeros((n, 1), bool)], 1)
    scores = qh @ kh.transpose(0, 1, 3, 2) / np.sqrt(d) + np.where(pad, -np.inf, 0.0)[:, None, None, :]
    weights = softmax(scores)
    out = (weights @ vh).transpose(0, 2, 1, 3).reshape(n, -1, e)
    return out @ m.out_proj.weight.numpy().T + m.out_proj.bias.numpy(), weights.mean(1)


@pytest.mark.parametrize("bias_kv, zero_attn", [(True, False), (False, True), (True, True)])
def test_multihead_attention_add_bias_kv_and_add_zero_attn(bias_kv, zero_attn):
    mf.manual_seed(0)
    m = nn.MultiheadAttention(8, 2, batch_first=True, add_bias_kv=bias_kv, add_zero_attn=zero_attn).double()
    with mf.no_grad():
        m.in_proj_bias.copy_(mf.tensor(rand(24)))
    names = [n for n, _ in m.named_parameters()]
    assert names == ["in_proj_weight", "in_proj_bias"] + (["bias_k", "bias_v"] if bias_kv else []) + [
        "out_proj.weight", "out_proj.bias"]
    if bias_kv:
        assert tuple(m.bias_k.shape) == (1, 1, 8) and m.bias_k.abs().sum().item() > 0  # xavier_normal_
    q, k, v = rand(2, 3, 8), rand(2, 5, 8), rand(2, 5, 8)
    pad = np.array([[False, False, False, True, True], [False] * 5])
    out, weights = m(mf.tensor(q), mf.tensor(k), mf.tensor(v), key_padding_mask=mf.tensor(pad))
    want_out, want_weights = mha_reference(m, q, k, v, pad)
    extra = bias_kv + zero_attn
    assert tuple(weights.shape) == (2, 3, 5 + extra)
    np.testing.assert_allclose(out.detach().numpy(), want_out, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weights.detach().numpy(), want_weights, rtol=1e-10, atol=1e-12)
    # need_weights=False takes the fused path with the padded mask: the same output
    fused, none = m(mf.tensor(q), mf.tensor(k), mf.tensor(v), key_padding_mask=mf.tensor(pad), need_weights=False)
    assert none is None
    np.testing.assert_allclose(fused.detach().numpy(), want_out, rtol=1e-10, atol=1e-12)
    out.sum().backward()
    if bias_kv:
        assert m.bias_k.grad is not None and m.bias_v.grad.abs().sum().item() > 0


# ---- scaled_dot_product_attention

def test_enable_gqa_serves_each_key_head_to_its_group_of_query_heads():
    q, k, v = rand(2, 4, 3, 5), rand(2, 2, 6, 5), rand(2, 2, 6, 5)
    got = F.scaled_dot_product_attention(mf.tensor(q), mf.tensor(k), mf.tensor(v), enable_gqa=True)
    kk, vv = np.repeat(k, 2, axis=1), np.repeat(v, 2, axis=1)  # heads 0, 0, 1, 1
    want = softmax(q @ kk.transpose(0, 1, 3, 2) / np.sqrt(5)) @ vv
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
    causal = F.scaled_dot_product_attention(mf.tensor(q), mf.tensor(k[:, :, :3]), mf.tensor(v[:, :, :3]),
                                            is_causal=True, enable_gqa=True)
    assert tuple(causal.shape) == (2, 4, 3, 5)
    with pytest.raises(RuntimeError, match=r"number of heads in key/value \(3, 3\) must divide"):
        F.scaled_dot_product_attention(mf.tensor(q), mf.tensor(rand(2, 3, 6, 5)), mf.tensor(rand(2, 3, 6, 5)),
                                       enable_gqa=True)


def test_sdpa_kernel_runs_the_block_as_without_it():
    from meshflow.nn.attention import SDPBackend, sdpa_kernel
    q = mf.tensor(rand(1, 2, 3, 4))
    with sdpa_kernel([SDPBackend.MATH, SDPBackend.FLASH_ATTENTION]):
        inside = F.scaled_dot_product_attention(q, q, q)
    np.testing.assert_array_equal(inside.numpy(), F.scaled_dot_product_attention(q, q, q).numpy())
    with pytest.raises(TypeError, match="expected SDPBackend values"):
        with sdpa_kernel("math"):
            pass


# ---- einsum, histogram, linalg

def test_einsum_sublist_form():
    a, b = rand(2, 3), rand(3, 4)
    np.testing.assert_allclose(mf.einsum(mf.tensor(a), [0, 1], mf.tensor(b), [1, 2], [0, 2]).numpy(), a @ b)
    np.testing.assert_allclose(mf.einsum(mf.tensor(a), [0, 1], mf.tensor(b), [1, 2]).numpy(), a @ b)  # implicit
    c = rand(5, 2, 3)
    np.testing.assert_allclose(mf.einsum(mf.tensor(c), [Ellipsis, 1], [Ellipsis]).numpy(), c.sum(-1))
    with pytest.raises(ValueError, match=r"not within the valid range \[0, 52\)"):
        mf.einsum(mf.tensor(a), [0, 60])


def test_histogram_as_numpy():
    x = rand(50)
    hist, edges = mf.histogram(mf.tensor(x, dtype=mf.float32), bins=4)
    want_edges = np.histogram(x.astype(np.float32).astype(np.float64), bins=4)[1]
    assert hist.dtype == mf.float32 and edges.dtype == mf.float32
    np.testing.assert_allclose(edges.numpy(), want_edges, rtol=1e-6, atol=1e-7)
    # Counted against its own edges (torch's: linspace's in float32, which may differ from
    # NumPy's float64 ones in the last bit, and a value on an edge with them).
    np.testing.assert_array_equal(hist.numpy(), np.histogram(x.astype(np.float32), bins=edges.numpy())[0])
    w = np.abs(rand(50))
    result = mf.tensor(x).histogram(mf.tensor([-1.0, 0.0, 0.5, 2.0]), weight=mf.tensor(w), density=True)
    np.testing.assert_allclose(result.hist.numpy(), np.histogram(x, [-1.0, 0.0, 0.5, 2.0], weights=w, density=True)[0])
    np.testing.assert_allclose(mf.histogram(mf.tensor(x), 3, range=(0.0, 1.0)).hist.numpy(),
                               np.histogram(x, 3, range=(0.0, 1.0))[0])
    with pytest.raises(RuntimeError, match="histogram: expected a floating input, got int64"):
        mf.histogram(mf.tensor([1, 2]), 2)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve_and_inverse(upper):
    m = rand(2, 4, 4)
    a = m @ m.transpose(0, 2, 1) + 4 * np.eye(4)
    b = rand(2, 4, 3)
    factor = mf.linalg.cholesky(mf.tensor(a), upper=upper)
    np.testing.assert_allclose(mf.cholesky_solve(mf.tensor(b), factor, upper=upper).numpy(), np.linalg.solve(a, b),
                               rtol=1e-10)
    np.testing.assert_allclose(mf.tensor(b).cholesky_solve(factor, upper).numpy(), np.linalg.solve(a, b), rtol=1e-10)
    np.testing.assert_allclose(mf.cholesky_inverse(factor, upper=upper).numpy(), np.linalg.inv(a), rtol=1e-10)


# ---- nn.init's fans, _foreach_*, load_state_dict's result

def test_init_fan_helpers_have_torchs_names_and_values():
    w = mf.empty(8, 3, 5, 5)
    assert nn.init._calculate_fan_in_and_fan_out(w) == (75, 200)
    assert nn.init._calculate_correct_fan(w, "fan_out") == 200
    with pytest.raises(ValueError, match="Mode fan_avg not supported"):
        nn.init._calculate_correct_fan(w, "fan_avg")
    with pytest.raises(ValueError, match="at least 2 dims"):
        nn.init._calculate_fan_in_and_fan_out(mf.empty(3))


def test_foreach_functions_apply_each_tensor_s_method():
    a, b = [rand(3), rand(2, 2)], [rand(3), rand(2, 2)]
    ts = [mf.tensor(x) for x in a]
    mf._foreach_mul_(ts, 0.5)
    mf._foreach_add_(ts, [mf.tensor(x) for x in b], alpha=2.0)
    for t, x, y in zip(ts, a, b):
        np.testing.assert_allclose(t.numpy(), x * 0.5 + 2 * y)
    ema = [mf.tensor(x) for x in a]
    mf._foreach_lerp_(ema, [mf.tensor(y) for y in b], 0.1)
    for t, x, y in zip(ema, a, b):
        np.testing.assert_allclose(t.numpy(), x + 0.1 * (y - x))
    out = mf._foreach_mul([mf.tensor(x) for x in a], [2.0, 3.0])
    np.testing.assert_allclose(out[1].numpy(), a[1] * 3.0)
    norms = mf._foreach_norm([mf.tensor(x) for x in a])
    np.testing.assert_allclose([n.item() for n in norms], [np.linalg.norm(x) for x in a])
    mf._foreach_zero_(ts)
    assert all(t.abs().sum().item() == 0 for t in ts)
    with pytest.raises(RuntimeError, match="expected 2 values, one per tensor, got 3"):
        mf._foreach_mul_(ts, [1.0, 2.0, 3.0])


def test_load_state_dict_result_is_torchs_named_tuple():
    result = nn.Linear(2, 2).load_state_dict({"weight": mf.zeros(2, 2)}, strict=False)
    assert repr(result) == "_IncompatibleKeys(missing_keys=['bias'], unexpected_keys=[])"
    assert result.missing_keys == ["bias"]


# ---- autograd.functional's jacobian and hessian, grad_fn classes

def test_jacobian_and_hessian_have_torchs_shapes_and_values():
    from meshflow.autograd.functional import hessian, jacobian  # noqa: F401 (torch's import path)
    a, b = rand(3), rand(3)
    j = mf.autograd.functional.jacobian(lambda t: t ** 2, mf.tensor(a))
    np.testing.assert_allclose(j.numpy(), np.diag(2 * a))
    m = rand(2, 3)
    blocks = mf.autograd.functional.jacobian(lambda x, y: (mf.tensor(m) @ x, (x * y).sum()), (mf.tensor(a), mf.tensor(b)))
    assert [[tuple(t.shape) for t in row] for row in blocks] == [[(2, 3), (2, 3)], [(3,), (3,)]]
    np.testing.assert_allclose(blocks[0][0].numpy(), m)
    np.testing.assert_allclose(blocks[0][1].numpy(), np.zeros((2, 3)))
    np.testing.assert_allclose(blocks[1][1].numpy(), a)
    h = mf.autograd.functional.hessian(lambda x: (x ** 3).sum(), mf.tensor(a))
    np.testing.assert_allclose(h.numpy(), np.diag(6 * a))
    h2 = mf.autograd.functional.hessian(lambda x, y: (x * x * y).sum(), (mf.tensor(a), mf.tensor(b)))
    np.testing.assert_allclose(h2[0][0].numpy(), np.diag(2 * b))
    np.testing.assert_allclose(h2[0][1].numpy(), np.diag(2 * a))
    assert not j.requires_grad
    x = mf.tensor(a, requires_grad=True)
    jx = mf.autograd.functional.jacobian(lambda t: t ** 3, x, create_graph=True)
    jx.sum().backward()  # d/dx sum(diag(3 x^2)) = 6 x
    np.testing.assert_allclose(x.grad.numpy(), 6 * a)


def test_grad_fn_objects_are_of_torchs_named_classes():
    class Cube(mf.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 3 * x * x * g
    x = mf.tensor(a := rand(2), requires_grad=True)
    y = Cube.apply(x)
    assert type(y.grad_fn).__name__ == "CubeBackward" and y.grad_fn.name() == "CubeBackward"
    z = (y + 1).sum()
    assert type(z.grad_fn).__name__ == "SumBackward0" and type(z.grad_fn) is type((x * 2).sum().grad_fn)
    assert z.grad_fn is z.grad_fn
    z.backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * a * a)


# ---- the random generator's state as torch's

def test_rng_state_default_generator_and_fork_rng():
    mf.manual_seed(11)
    state = mf.random.get_rng_state()
    assert state.dtype == mf.uint8 and tuple(state.shape) == (16,)
    first = mf.rand(3).numpy()
    with mf.random.fork_rng():
        mf.manual_seed(99)
        mf.rand(5)
    second = mf.rand(2).numpy()  # fork_rng left the generator where it was
    mf.set_rng_state(state)
    np.testing.assert_array_equal(np.concatenate([mf.rand(3).numpy(), mf.rand(2).numpy()]),
                                  np.concatenate([first, second]))
    g = mf.default_generator
    assert type(g) is mf.Generator
    g.manual_seed(11)
    assert mf.initial_seed() == 11 and g.initial_seed() == 11
    np.testing.assert_array_equal(mf.rand(3).numpy(), first)  # its seed is the process's
    g.set_state(state)
    np.testing.assert_array_equal(mf.rand(3, generator=g).numpy(), first)
    np.testing.assert_array_equal(mf.Generator().set_state(g.get_state()).get_state().numpy(), g.get_state().numpy())


# ---- nn.utils.parametrize and parametrizations

class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class Exp(nn.Module):
    def forward(self, X):
        return X.exp()

    def right_inverse(self, Y):
        return Y.log()


def linear(w, b):
    m = nn.Linear(w.shape[1], w.shape[0]).double()
    with mf.no_grad():
        m.weight.copy_(mf.tensor(w))
        m.bias.copy_(mf.tensor(b))
    return m


def test_register_parametrization_computes_the_tensor_from_its_original():
    P = nn.utils.parametrize
    w, b, x = rand(3, 3), rand(3), rand(2, 3)
    m = linear(w, b)
    weight = m.weight
    P.register_parametrization(m, "weight", Symmetric())
    assert P.is_parametrized(m) and P.is_parametrized(m, "weight") and not P.is_parametrized(m, "bias")
    assert type(m).__name__ == "ParametrizedLinear" and P.type_before_parametrizations(m) is nn.Linear
    assert sorted(n for n, _ in m.named_parameters()) == ["bias", "parametrizations.weight.original"]
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original"]
    assert m.parametrizations.weight.original is weight  # the same Parameter: optimizers keep it
    sym = np.triu(w) + np.triu(w, 1).T
    np.testing.assert_allclose(m.weight.detach().numpy(), sym)
    y = m(mf.tensor(x))
    y.sum().backward()  # d/dW of sum(x @ sym(W)^T): the upper triangle gathers both halves
    g = np.ones((2, 3)).T @ x
    np.testing.assert_allclose(weight.grad.numpy(), np.triu(g) + np.triu(g.T, 1), rtol=1e-12)
    with P.cached():
        assert m.weight is m.weight
    assert m.weight is not m.weight
    P.remove_parametrizations(m, "weight")
    assert type(m) is nn.Linear and m.weight is weight and not P.is_parametrized(m)
    np.testing.assert_allclose(m.weight.detach().numpy(), sym)


def test_right_inverse_chains_and_assignment():
    P = nn.utils.parametrize
    w = np.abs(rand(2, 2)) + 0.5
    m = linear(w, rand(2))
    P.register_parametrization(m, "weight", Exp())
    np.testing.assert_allclose(m.parametrizations.weight.original.detach().numpy(), np.log(w))
    np.testing.assert_allclose(m.weight.detach().numpy(), w)
    m.weight = mf.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=mf.float64)
    np.testing.assert_allclose(m.parametrizations.weight.original.detach().numpy(), np.log([[1, 2], [3, 4]]))
    P.register_parametrization(m, "weight", Symmetric())  # chained: Symmetric(Exp(original))
    np.testing.assert_allclose(m.weight.detach().numpy(), [[1, 2], [2, 4]])
    P.remove_parametrizations(m, "weight", leave_parametrized=False)
    np.testing.assert_allclose(m.weight.detach().numpy(), np.log([[1, 2], [3, 4]]))
    with pytest.raises(ValueError, match="may not change the shape or dtype"):
        P.register_parametrization(linear(w, rand(2)), "weight", type("Row", (nn.Module,), {"forward": lambda s, X: X[0]})())
    with pytest.raises(ValueError, match="does not have a parameter, a buffer, or a parametrized element"):
        P.register_parametrization(m, "nothing", Exp())


def test_parametrizations_weight_norm_and_spectral_norm():
    from meshflow.nn.utils import parametrizations
    w, b, x = rand(3, 4), rand(3), rand(5, 4)
    m = parametrizations.weight_norm(linear(w, b))
    assert sorted(n for n, _ in m.named_parameters()) == ["bias", "parametrizations.weight.original0",
                                                         "parametrizations.weight.original1"]
    g = np.linalg.norm(w, axis=1, keepdims=True)
    np.testing.assert_allclose(m.parametrizations.weight.original0.detach().numpy(), g)
    np.testing.assert_allclose(m.weight.detach().numpy(), w, rtol=1e-12)
    with mf.no_grad():
        m.parametrizations.weight.original0.mul_(2.0)
    np.testing.assert_allclose(m(mf.tensor(x)).detach().numpy(), x @ (2 * w).T + b, rtol=1e-12)
    s = parametrizations.spectral_norm(linear(w, b))
    assert sorted(n for n, _ in s.named_buffers()) == ["parametrizations.weight.0._u", "parametrizations.weight.0._v"]
    for _ in range(30):  # power iteration (training) converges to the largest singular value
        weight = s.weight
    np.testing.assert_allclose(weight.detach().numpy(), w / np.linalg.svd(w, compute_uv=False)[0], rtol=1e-6)


@pytest.mark.parametrize("orthogonal_map", ["matrix_exp", "cayley", "householder"])
def test_parametrizations_orthogonal_stays_orthogonal_while_training(orthogonal_map):
    from meshflow.nn.utils import parametrizations
    w = rand(4, 4)
    m = parametrizations.orthogonal(linear(w, rand(4)), orthogonal_map=orthogonal_map)
    q, r = np.linalg.qr(w)
    np.testing.assert_allclose(m.weight.detach().numpy(), q * np.sign(np.diag(r)), atol=1e-12)  # at first: base
    opt = mf.optim.SGD(m.parameters(), lr=0.1)
    x = mf.tensor(rand(3, 4))
    for _ in range(3):
        loss = (m(x) - 1).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    q = m.weight.detach().numpy()
    assert not np.allclose(q, m.parametrizations.weight[0].base.numpy())  # it moved
    np.testing.assert_allclose(q @ q.T, np.eye(4), atol=1e-12)


def test_matrix_exp_and_householder_product():
    a = rand(2, 4, 4)
    s = a + a.transpose(0, 2, 1)
    w, v = np.linalg.eigh(s)
    np.testing.assert_allclose(mf.linalg.matrix_exp(mf.tensor(s)).numpy(),
                               v @ (np.exp(w)[..., None] * v.transpose(0, 2, 1)), rtol=1e-12)
    np.testing.assert_allclose(mf.matrix_exp(mf.tensor(np.zeros((3, 3)))).numpy(), np.eye(3))
    A, tau = rand(5, 3), np.array([1.2, 0.7, 1.9])
    expected = np.eye(5)
    for i in range(3):
        v = np.concatenate([np.zeros(i), [1.0], A[i + 1:, i]])
        expected = expected @ (np.eye(5) - tau[i] * np.outer(v, v))
    np.testing.assert_allclose(mf.linalg.householder_product(mf.tensor(A), mf.tensor(tau)).numpy(), expected[:, :3],
                               rtol=1e-12, atol=1e-12)


def test_diagonal_is_a_view_writes_reach_the_base():
    z = mf.zeros(3, 4)
    z.diagonal(1).fill_(2.0)
    assert z.tolist() == [[0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 2]]
    a = mf.ones(2, 3, 3)
    a.diagonal(dim1=-2, dim2=-1).add_(1e-3)  # jitter before a Cholesky
    np.testing.assert_allclose(a.numpy(), np.ones((2, 3, 3)) + 1e-3 * np.eye(3))
    d = z.diagonal()
    z.add_(1)
    assert d.tolist() == [1, 1, 1]  # the view follows its base
    x = mf.ones(3, 3, requires_grad=True)
    y = x * 2
    y.diagonal().mul_(5)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 + 8 * np.eye(3))


# ---- modules print as torch 2's (print(model) is in most programs)

@pytest.mark.parametrize("module, expected", [
    (lambda: nn.BatchNorm2d(4, momentum=0.2, affine=False),
     "BatchNorm2d(4, eps=1e-05, momentum=0.2, affine=False, bias=False, track_running_stats=True)"),
    (lambda: nn.BatchNorm1d(4), "BatchNorm1d(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)"),
    (lambda: nn.SyncBatchNorm(3, bias=False),
     "SyncBatchNorm(3, eps=1e-05, momentum=0.1, affine=True, bias=False, track_running_stats=True)"),
    (lambda: nn.InstanceNorm2d(3), "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, "
                                   "track_running_stats=False)"),
    (lambda: nn.LayerNorm((2, 3), elementwise_affine=False), "LayerNorm((2, 3), eps=1e-05, elementwise_affine=False, bias=False)"),
    (lambda: nn.LayerNorm(5), "LayerNorm((5,), eps=1e-05, elementwise_affine=True, bias=True)"),
    (lambda: nn.GroupNorm(2, 4), "GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)"),
    (lambda: nn.AvgPool1d(3, stride=1), "AvgPool1d(kernel_size=(3,), stride=(1,), padding=(0,))"),
    (lambda: nn.Flatten(), "Flatten(start_dim=1, end_dim=-1)"),
    (lambda: nn.Upsample(scale_factor=2), "Upsample(scale_factor=2.0, mode='nearest')"),
    (lambda: nn.Upsample(size=(4, 4), mode="bilinear", align_corners=False), "Upsample(size=(4, 4), mode='bilinear')"),
    (lambda: nn.UpsamplingNearest2d(scale_factor=2), "UpsamplingNearest2d(scale_factor=2.0, mode='nearest')"),
    (lambda: nn.ZeroPad2d(1), "ZeroPad2d((1, 1, 1, 1))"),
    (lambda: nn.ConstantPad1d(2, 0.5), "ConstantPad1d(padding=(2, 2), value=0.5)"),
    (lambda: nn.ReflectionPad2d(2), "ReflectionPad2d((2, 2, 2, 2))"),
    (lambda: nn.MaxUnpool2d(2), "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))"),
    (lambda: nn.MultiheadAttention(4, 2).out_proj, "NonDynamicallyQuantizableLinear(in_features=4, out_features=4, bias=True)"),
])
def test_module_reprs_are_torchs(module, expected):
    assert repr(module()) == expected


def test_norms_take_torchs_bias_keyword():
    x = mf.tensor(rand(4, 3, 5), dtype=mf.float32)
    for m in (nn.BatchNorm1d(3, bias=False), nn.InstanceNorm1d(3, affine=True, bias=False), nn.GroupNorm(1, 3, bias=False)):
        assert m.bias is None and [n for n, _ in m.named_parameters()] == ["weight"]
        assert tuple(m(x).shape) == (4, 3, 5)
    bn = nn.BatchNorm1d(3, bias=False)
    xs = x.numpy()
    want = (xs - xs.mean((0, 2), keepdims=True)) / np.sqrt(xs.var((0, 2), keepdims=True) + 1e-5)
    np.testing.assert_allclose(bn(x).detach().numpy(), want, rtol=1e-4, atol=1e-5)
    up = nn.UpsamplingBilinear2d(scale_factor=2)
    assert up.align_corners is True and tuple(up(mf.ones(1, 1, 2, 2)).shape) == (1, 1, 4, 4)
    assert tuple(nn.AvgPool1d(2)(mf.ones(1, 1, 6)).shape) == (1, 1, 3)


# ---- the gamma family and the distributions built on it

# digamma's closed forms: psi(1) = -gamma, psi(1/2) = -gamma - 2 ln 2, psi(1/4) = -gamma -
# pi/2 - 3 ln 2, and psi(x + 1) = psi(x) + 1/x.
def _digamma(x):
    import math
    start = {0.0: 1.0, 0.5: 0.5, 0.25: 0.25}[x % 1]
    value = -0.5772156649015329 + {1.0: 0.0, 0.5: -2 * math.log(2), 0.25: -math.pi / 2 - 3 * math.log(2)}[start]
    while start < x:
        value += 1 / start
        start += 1
    return value


def test_lgamma_digamma_polygamma_against_series():
    import math
    xs = [0.5, 1.0, 2.5, 4.0, 7.25]
    x = mf.tensor(xs, dtype=mf.float64)
    np.testing.assert_allclose(mf.lgamma(x).numpy(), [math.lgamma(v) for v in xs], rtol=1e-13)
    np.testing.assert_allclose(x.digamma().numpy(), [_digamma(v) for v in xs], rtol=1e-6)
    trigamma = [sum(1 / (k + v) ** 2 for k in range(200000)) + 1 / (200000 + v) for v in xs]
    np.testing.assert_allclose(mf.polygamma(1, x).numpy(), trigamma, rtol=1e-9)
    tetragamma = [-2 * sum(1 / (k + v) ** 3 for k in range(20000)) - 1 / (20000 + v) ** 2 for v in xs]
    np.testing.assert_allclose(x.polygamma(2).numpy(), tetragamma, rtol=1e-9)
    np.testing.assert_allclose(mf.special.zeta(3, x).numpy(), [-t / 2 for t in tetragamma], rtol=1e-9)
    np.testing.assert_allclose(mf.mvlgamma(x + 1, p=2).numpy(),
                               [math.lgamma(v + 1) + math.lgamma(v + 0.5) + 0.5 * math.log(math.pi) for v in xs],
                               rtol=1e-12)
    # poles and the float32 / integer forms, as torch's
    assert mf.lgamma(mf.tensor([0.0, -1.0])).tolist() == [math.inf, math.inf]
    d = mf.digamma(mf.tensor([0.0, -2.0, -0.5]))
    assert d[0].item() == -math.inf and math.isnan(d[1].item())
    assert abs(d[2].item() - 0.03649) < 1e-4
    assert mf.lgamma(mf.tensor([3])).dtype == mf.float32 and mf.lgamma(mf.tensor([3])).item() == pytest.approx(math.log(2))
    with pytest.raises(RuntimeError, match="does not support negative n"):
        mf.polygamma(-1, x)


def test_gamma_family_on_the_test_device_equals_the_cpu():
    x = mf.tensor(np.array([-2.5, -1.0, 0.0, 0.3, 1.7, 12.0, 1e18]))
    for f in (mf.lgamma, mf.digamma, lambda t: mf.polygamma(1, t), lambda t: mf.polygamma(4, t)):
        np.testing.assert_array_equal(f(x.to("testdev")).cpu().numpy(), f(x).numpy())


def test_gamma_family_gradients_chain():
    from gradcheck import check_gradients
    a = np.array([0.7, 1.5, 3.2])
    check_gradients(mf.lgamma, [a])
    check_gradients(mf.digamma, [a])
    check_gradients(lambda t: mf.polygamma(1, t), [a])


def test_distributions_log_probs_against_formulas():
    import math
    D = mf.distributions
    v = np.array([0.3, 0.7])
    np.testing.assert_allclose(D.Gamma(mf.tensor([2.0, 3.0], dtype=mf.float64), mf.tensor([1.5, 0.5], dtype=mf.float64))
                               .log_prob(mf.tensor(v)).numpy(),
                               [2 * math.log(1.5) + math.log(0.3) - 1.5 * 0.3 - math.lgamma(2),
                                3 * math.log(0.5) + 2 * math.log(0.7) - 0.5 * 0.7 - math.lgamma(3)], rtol=1e-12)
    beta = D.Beta(mf.tensor(2.0, dtype=mf.float64), mf.tensor(3.0, dtype=mf.float64))
    want = math.log(0.4) + 2 * math.log(0.6) + math.lgamma(5) - math.lgamma(2) - math.lgamma(3)
    assert beta.log_prob(mf.tensor(0.4, dtype=mf.float64)).item() == pytest.approx(want, rel=1e-12)
    assert beta.mean.item() == pytest.approx(0.4)
    cov = np.array([[2.0, 0.5], [0.5, 1.0]])
    mvn = D.MultivariateNormal(mf.zeros(2, dtype=mf.float64), covariance_matrix=mf.tensor(cov))
    x = np.array([0.5, -0.5])
    want = -0.5 * (2 * math.log(2 * math.pi) + x @ np.linalg.solve(cov, x)) - 0.5 * math.log(np.linalg.det(cov))
    assert mvn.log_prob(mf.tensor(x)).item() == pytest.approx(want, rel=1e-12)
    assert mvn.entropy().item() == pytest.approx(0.5 * 2 * (1 + math.log(2 * math.pi)) + 0.5 * math.log(np.linalg.det(cov)))
    ind = D.Independent(D.Normal(mf.zeros(2, 3), mf.ones(2, 3)), 1)
    assert tuple(ind.batch_shape) == (2,) and tuple(ind.event_shape) == (3,)
    np.testing.assert_allclose(ind.log_prob(mf.zeros(2, 3)).numpy(), [-1.5 * math.log(2 * math.pi)] * 2, rtol=1e-6)
    assert D.Poisson(mf.tensor([3.0])).log_prob(mf.tensor([2.0])).item() == pytest.approx(
        2 * math.log(3) - 3 - math.log(2), rel=1e-6)
    assert D.Laplace(0.0, 1.0).log_prob(mf.tensor(0.5)).item() == pytest.approx(-math.log(2) - 0.5)
    kl = D.kl_divergence(D.Gamma(mf.tensor(2.0), mf.tensor(1.0)), D.Gamma(mf.tensor(2.0), mf.tensor(1.0)))
    assert abs(kl.item()) < 1e-6
    draws = D.Gamma(mf.full((2000,), 3.0), mf.full((2000,), 2.0)).sample()
    assert abs(draws.mean().item() - 1.5) < 0.1 and draws.min().item() > 0
    assert abs(D.Beta(mf.tensor(2.0), mf.tensor(2.0)).sample((4000,)).mean().item() - 0.5) < 0.03


# ---- older scatter forms, index_reduce, put, an RNN's weight lists

def test_scatter_reduce_keyword_index_reduce_and_put():
    src = np.arange(1.0, 7.0).reshape(2, 3)
    idx = np.array([[0, 1, 0], [1, 0, 1]])
    add = np.ones((2, 3))
    mul = np.ones((2, 3))
    for (i, j), v in np.ndenumerate(src):
        add[idx[i, j], j] += v
        mul[idx[i, j], j] *= v
    got = mf.ones(2, 3, dtype=mf.float64).scatter_(0, mf.tensor(idx), mf.tensor(src), reduce="add")
    np.testing.assert_array_equal(got.numpy(), add)
    np.testing.assert_array_equal(mf.ones(2, 3, dtype=mf.float64).scatter(0, mf.tensor(idx), mf.tensor(src),
                                                                         reduce="multiply").numpy(), mul)
    np.testing.assert_array_equal(mf.ones(2, 3).scatter(1, mf.tensor([[2], [0]]), 3.0, reduce="multiply").numpy(),
                                  [[1, 1, 3], [3, 1, 1]])
    with pytest.raises(RuntimeError, match="reduce argument must be either add or multiply"):
        mf.ones(2).scatter(0, mf.tensor([0]), mf.ones(1), reduce="mean")
    source = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    out = mf.zeros(3, 2, dtype=mf.float64).index_reduce_(0, mf.tensor([0, 2, 0]), mf.tensor(source), "amax",
                                                         include_self=False)
    np.testing.assert_array_equal(out.numpy(), [[5, 6], [0, 0], [3, 4]])
    mean = mf.ones(3, 2, dtype=mf.float64).index_reduce(0, mf.tensor([0, 2, 0]), mf.tensor(source), "mean")
    np.testing.assert_allclose(mean.numpy(), [[7 / 3, 3], [1, 1], [2, 2.5]])
    t = mf.zeros(2, 2)
    t.put_(mf.tensor([0, -1]), mf.tensor([5.0, 6.0]))
    assert t.tolist() == [[5, 0], [0, 6]]
    assert mf.zeros(4).put(mf.tensor([1, 1]), mf.tensor([1.0, 2.0]), accumulate=True).tolist() == [0, 3, 0, 0]


def test_rnn_all_weights_in_torchs_order():
    lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    names = lstm._flat_weights_names
    assert names[:5] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_ih_l0_reverse"]
    assert len(lstm.all_weights) == 4 and all(len(w) == 4 for w in lstm.all_weights)
    assert lstm.all_weights[1][0] is lstm.weight_ih_l0_reverse
    lstm.flatten_parameters()
    gru = nn.GRU(2, 3, bias=False)
    assert [tuple(w.shape) for w in gru.all_weights[0]] == [(9, 2), (9, 3)]


# ---- Tensor.to's other arguments, import paths, SparseAdam, MixtureSameFamily

def test_tensor_to_takes_torchs_other_arguments():
    x = mf.tensor([1.0, 2.0])
    assert x.to("cpu", non_blocking=True) is x and x.to(mf.float32, memory_format=None) is x
    copied = x.to("cpu", copy=True)
    assert copied is not x and copied.tolist() == [1, 2]
    assert x.to(mf.float64, False, True).dtype == mf.float64
    assert x.to(mf.tensor([1], dtype=mf.int32)).dtype == mf.int32  # other's dtype and device
    assert x.cuda.__name__ == "cuda" and x.cpu(memory_format=None) is x
    m = nn.Linear(2, 2).to("cpu", non_blocking=True)
    assert m.weight.device == mf.device("cpu")
    assert repr(nn.Linear(2, 2).load_state_dict(nn.Linear(2, 2).state_dict())) == "<All keys matched successfully>"


def test_torch_utils_data_submodules():
    from meshflow.utils.data.dataloader import DataLoader, default_collate
    from meshflow.utils.data.dataset import Dataset, TensorDataset  # noqa: F401
    from meshflow.utils.data.sampler import BatchSampler, Sampler  # noqa: F401
    assert DataLoader is mf.utils.data.DataLoader and default_collate([1, 2]).tolist() == [1, 2]


def test_sparse_adam_updates_only_the_rows_a_gradient_touches():
    w0 = rand(5, 3)
    emb = nn.Embedding(5, 3, sparse=True).double()
    with mf.no_grad():
        emb.weight.copy_(mf.tensor(w0))
    opt = mf.optim.SparseAdam(emb.parameters(), lr=0.1, betas=(0.8, 0.9))
    w, m, v = w0.copy(), np.zeros_like(w0), np.zeros_like(w0)
    for step, ids in enumerate(([1, 2, 1], [2, 4]), start=1):
        loss = emb(mf.tensor(ids)).pow(2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        g = np.zeros_like(w)
        for i in ids:
            g[i] += 2 * w[i]
        rows = sorted(set(ids))
        m[rows] += (g[rows] - m[rows]) * 0.2
        v[rows] += (g[rows] ** 2 - v[rows]) * 0.1
        w[rows] -= 0.1 * np.sqrt(1 - 0.9 ** step) / (1 - 0.8 ** step) * m[rows] / (np.sqrt(v[rows]) + 1e-8)
    np.testing.assert_allclose(emb.weight.detach().numpy(), w, rtol=1e-12)
    np.testing.assert_array_equal(emb.weight.detach().numpy()[[0, 3]], w0[[0, 3]])  # never touched


def test_mixture_same_family():
    D = mf.distributions
    logits, mu, sigma = rand(4, 3), rand(4, 3), np.abs(rand(4, 3)) + 0.5
    y = rand(4)
    mix = D.MixtureSameFamily(D.Categorical(logits=mf.tensor(logits)), D.Normal(mf.tensor(mu), mf.tensor(sigma)))
    assert tuple(mix.batch_shape) == (4,) and tuple(mix.event_shape) == ()
    w = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    dens = (w * np.exp(-0.5 * ((y[:, None] - mu) / sigma) ** 2) / (sigma * np.sqrt(2 * np.pi))).sum(-1)
    np.testing.assert_allclose(mix.log_prob(mf.tensor(y)).numpy(), np.log(dens), rtol=1e-10)
    mean = (w * mu).sum(-1)
    np.testing.assert_allclose(mix.mean.numpy(), mean, rtol=1e-12)
    np.testing.assert_allclose(mix.variance.numpy(), (w * sigma ** 2).sum(-1) + (w * (mu - mean[:, None]) ** 2).sum(-1),
                               rtol=1e-12)
    assert tuple(mix.sample((6,)).shape) == (6, 4)
    comp = D.Independent(D.Normal(mf.zeros(3, 2), mf.ones(3, 2)), 1)
    mix2 = D.MixtureSameFamily(D.Categorical(probs=mf.ones(3) / 3), comp)
    assert tuple(mix2.event_shape) == (2,) and tuple(mix2.sample((5,)).shape) == (5, 2)
    assert mix2.log_prob(mf.zeros(2)).item() == pytest.approx(-np.log(2 * np.pi), rel=1e-6)


def test_unpad_and_unpack_sequence_invert_pad_and_pack():
    from meshflow.nn.utils import rnn as R
    seqs = [mf.tensor([1.0, 2.0, 3.0]), mf.tensor([4.0]), mf.tensor([5.0, 6.0])]
    for batch_first in (False, True):
        back = R.unpad_sequence(R.pad_sequence(seqs, batch_first=batch_first), mf.tensor([3, 1, 2]), batch_first)
        assert [t.tolist() for t in back] == [[1, 2, 3], [4], [5, 6]]
    assert [t.tolist() for t in R.unpack_sequence(R.pack_sequence(seqs, enforce_sorted=False))] == [[1, 2, 3], [4], [5, 6]]


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_conv_padding_modes_pad_then_convolve(mode):
    x = rand(2, 3, 6, 7)
    np_mode = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}[mode]
    for padding, np_pad in ((1, ((1, 1), (1, 1))), ((1, 2), ((1, 1), (2, 2))), ("same", ((1, 1), (1, 2)))):
        conv = nn.Conv2d(3, 2, (3, 4), padding=padding, padding_mode=mode).double()
        padded = np.pad(x, ((0, 0), (0, 0)) + np_pad, mode=np_mode)
        want = F.conv2d(mf.tensor(padded), conv.weight, conv.bias).detach().numpy()
        np.testing.assert_allclose(conv(mf.tensor(x)).detach().numpy(), want, rtol=1e-12)
    c1 = nn.Conv1d(3, 2, 3, padding=2, padding_mode=mode).double()
    want = F.conv1d(mf.tensor(np.pad(x[:, :, 0], ((0, 0), (0, 0), (2, 2)), mode=np_mode)), c1.weight, c1.bias)
    np.testing.assert_allclose(c1(mf.tensor(x[:, :, 0])).detach().numpy(), want.detach().numpy(), rtol=1e-12)
    assert repr(c1).endswith(f"padding=(2,), padding_mode={mode})")


# ---- torch's remaining spellings: top-level layers, memory formats, aliases, old names

def test_top_level_layer_spellings_and_argument_orders():
    x = rand(2, 3, 5, 5)
    w = rand(4, 3, 3, 3)
    np.testing.assert_allclose(mf.conv2d(mf.tensor(x), mf.tensor(w), padding=1).numpy(),
                               F.conv2d(mf.tensor(x), mf.tensor(w), padding=1).numpy())
    t = mf.tensor(x)
    assert mf.dropout(t, 0.5, False) is t or np.array_equal(mf.dropout(t, 0.5, False).numpy(), x)
    table = rand(5, 3)
    np.testing.assert_array_equal(mf.embedding(mf.tensor(table), mf.tensor([4, 0])).numpy(), table[[4, 0]])
    mean, var = x.mean((0, 2, 3)), x.var((0, 2, 3))
    got = mf.batch_norm(t, mf.ones(3, dtype=mf.float64) * 2, None, mf.tensor(mean), mf.tensor(var), False, 0.1, 1e-5)
    want = 2 * (x - mean[:, None, None]) / np.sqrt(var[:, None, None] + 1e-5)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(mf.layer_norm(t, (5,)).numpy(), F.layer_norm(t, (5,)).numpy())


def test_memory_formats_and_small_aliases():
    x = mf.tensor(rand(2, 3, 4, 4))
    # torch's: a row-major x in channels_last is a new tensor of the same values, itself after.
    cl = x.to(memory_format=mf.channels_last)
    assert cl is not x and cl.is_contiguous(memory_format=mf.channels_last) and not x.is_contiguous(memory_format=mf.channels_last)
    assert cl.contiguous(memory_format=mf.channels_last) is cl
    np.testing.assert_array_equal(cl.numpy(), x.numpy())
    assert repr(mf.channels_last) == "meshflow.channels_last"
    m = mf.tensor(rand(2, 3))
    np.testing.assert_array_equal(m.H.numpy(), m.numpy().T)
    np.testing.assert_array_equal(mf.adjoint(m).numpy(), m.numpy().T)
    np.testing.assert_allclose(m.sum_to_size(1, 3).numpy(), m.numpy().sum(0, keepdims=True))
    assert [tuple(p.shape) for p in m.split_with_sizes([1, 2], 1)] == [(2, 1), (2, 2)]
    assert mf.vdot(mf.tensor([1.0, 2.0]), mf.tensor([3.0, 4.0])).item() == 11
    assert mf.isposinf(mf.tensor([np.inf, -np.inf, 1.0])).tolist() == [True, False, False]
    assert mf.isneginf(mf.tensor([np.inf, -np.inf, 1.0])).tolist() == [False, True, False]
    assert tuple(mf.atleast_3d(mf.tensor([1.0, 2.0])).shape) == (1, 2, 1)
    assert mf.rsub(mf.tensor([1.0, 2.0]), 5).tolist() == [4, 3]
    y = mf.tensor([0.5, 2.0])
    y.lgamma_()
    np.testing.assert_allclose(y.numpy(), [0.5723649429247001, 0.0], atol=1e-7)
    z = mf.ones(2, 3)
    z.swapaxes_(0, 1)
    assert tuple(z.shape) == (3, 2)
    assert mf.asarray([1, 2]).tolist() == [1, 2] and mf.asarray(y) is y and mf.asarray(y, copy=True) is not y
    v = mf.autograd.Variable(mf.ones(2), requires_grad=True)
    assert v.requires_grad
    assert nn.init.xavier_uniform is nn.init.xavier_uniform_ and nn.utils.clip_grad_norm is nn.utils.clip_grad_norm_
    w = mf.empty(6, 4)
    nn.init.sparse_(w, 0.5)
    assert (w == 0).sum(0).tolist() == [3, 3, 3, 3]
    out, idx = F.max_pool2d_with_indices(mf.tensor(rand(1, 1, 4, 4)), 2)
    assert tuple(idx.shape) == (1, 1, 2, 2)
    assert tuple(F.upsample(mf.ones(1, 1, 2, 2), scale_factor=2).shape) == (1, 1, 4, 4)


def test_buffer_lazy_linear_base_classes_and_set_submodule():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Buffer(mf.ones(2))
            self.b = nn.Buffer(mf.zeros(1), persistent=False)
            self.l = nn.Linear(2, 2)
    m = M()
    assert list(m.state_dict()) == ["a", "l.weight", "l.bias"] and [n for n, _ in m.named_buffers()] == ["a", "b"]
    m.set_submodule("l", nn.Identity())
    assert isinstance(m.l, nn.Identity)
    assert isinstance(nn.LSTM(2, 2), nn.RNNBase) and isinstance(nn.GRUCell(2, 2), nn.RNNCellBase)
    lazy = nn.Sequential(nn.LazyLinear(3))
    assert repr(lazy[0]) == "LazyLinear(in_features=0, out_features=3, bias=True)"
    x = mf.tensor(rand(2, 5), dtype=mf.float32)
    y = lazy(x)
    assert type(lazy[0]) is nn.Linear and tuple(lazy[0].weight.shape) == (3, 5) and lazy[0].in_features == 5
    np.testing.assert_allclose(y.detach().numpy(), x.numpy() @ lazy[0].weight.detach().numpy().T +
                               lazy[0].bias.detach().numpy(), rtol=1e-5)
    assert lazy[0].weight.abs().max().item() <= 1 / np.sqrt(5)


def test_any_all_of_uint8_are_uint8_and_bools_sort():
    u = mf.tensor(np.array([[0, 3, 1], [2, 2, 0]], np.uint8))
    assert u.any().dtype == mf.uint8 and u.any().item() == 1
    assert u.all(1).dtype == mf.uint8 and u.all(1).tolist() == [0, 0]
    assert mf.tensor([1, 0]).any().dtype == mf.bool
    values, indices = mf.tensor([True, False, True, False]).sort()
    assert values.dtype == mf.bool and values.tolist() == [False, False, True, True] and indices.tolist() == [1, 3, 0, 2]


# ---- torch.func

def test_functional_call_swaps_parameters_and_restores_them():
    from meshflow.func import functional_call
    w, b = rand(2, 3), rand(2)
    m = linear(w, b)
    x = rand(4, 3)
    w2 = mf.tensor(rand(2, 3), requires_grad=True)
    out = functional_call(m, {"weight": w2}, (mf.tensor(x),))
    np.testing.assert_allclose(out.detach().numpy(), x @ w2.detach().numpy().T + b, rtol=1e-12)
    out.sum().backward()
    np.testing.assert_allclose(w2.grad.numpy(), np.ones((4, 2)).T @ x, rtol=1e-12)
    assert m.weight.grad is None and np.array_equal(m.weight.detach().numpy(), w)  # put back, untouched
    assert mf.nn.utils.stateless.functional_call is functional_call
    tied = nn.Sequential(nn.Linear(2, 2, bias=False), nn.Linear(2, 2, bias=False))
    tied[1].weight = tied[0].weight
    y = functional_call(tied, {"0.weight": mf.zeros(2, 2)}, mf.ones(1, 2))  # the tied name takes it too
    assert y.tolist() == [[0, 0]]
    with pytest.raises(RuntimeError, match="Missing key"):
        functional_call(m, {"weight": w2}, (mf.tensor(x),), strict=True)


def test_func_grad_nests_and_takes_dicts():
    from meshflow import func
    x = mf.tensor([1.0, 2.0])
    f = lambda t: (t ** 3).sum()  # noqa: E731
    np.testing.assert_allclose(func.grad(f)(x).numpy(), [3, 12])
    np.testing.assert_allclose(func.grad(lambda t: func.grad(f)(t).sum())(x).numpy(), [6, 12])
    g, value = func.grad_and_value(f)(x)
    assert value.item() == 9 and g.tolist() == [3, 12]
    params = {"a": mf.tensor(2.0), "b": [mf.tensor(3.0)]}
    grads = func.grad(lambda p, c: p["a"] * p["b"][0] * c)(params, mf.tensor(5.0))
    assert grads["a"].item() == 15 and grads["b"][0].item() == 10
    out, vjp_fn = func.vjp(lambda a: a.sin(), x)
    np.testing.assert_allclose(vjp_fn(mf.ones(2))[0].numpy(), np.cos([1.0, 2.0]), rtol=1e-6)
    np.testing.assert_allclose(func.jacrev(lambda a: a ** 2)(x).numpy(), np.diag([2.0, 4.0]))
    np.testing.assert_allclose(func.hessian(f)(x).numpy(), np.diag([6.0, 12.0]))
    np.testing.assert_allclose(func.vmap(func.grad(f))(mf.tensor([[1.0, 2.0], [3.0, 4.0]])).numpy(),
                               [[3, 12], [27, 48]])  # a per-row gradient (vmap maps, sixth round)


# ---- the Bessel family, kaiser_window, ldexp / frexp, ndtri / log_ndtr

def test_bessel_functions_against_their_series():
    import math
    xs = [0.0, 0.3, -1.0, 2.5, 7.9, 8.1, 15.0, -30.0]
    s0 = [sum((x / 2) ** (2 * k) / math.factorial(k) ** 2 for k in range(90)) for x in xs]
    s1 = [sum((x / 2) ** (2 * k + 1) / (math.factorial(k) * math.factorial(k + 1)) for k in range(90)) for x in xs]
    x = mf.tensor(xs, dtype=mf.float64)
    np.testing.assert_allclose(mf.i0(x).numpy(), s0, rtol=1e-13)
    np.testing.assert_allclose(mf.special.i1(x).numpy(), s1, rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(mf.special.i0e(x).numpy(), np.array(s0) * np.exp(-np.abs(xs)), rtol=1e-13)
    np.testing.assert_allclose(mf.special.i1e(x).numpy(), np.array(s1) * np.exp(-np.abs(xs)), rtol=1e-13)
    assert mf.i0(mf.tensor([1])).dtype == mf.float32
    from gradcheck import check_gradients
    check_gradients(mf.i0, [np.array([0.0, 0.7, -2.0, 9.0])])
    check_gradients(mf.special.i0e, [np.array([0.3, -2.0, 9.0])])
    check_gradients(mf.special.i1, [np.array([0.0, 0.7, -2.0, 9.0])])
    check_gradients(mf.special.i1e, [np.array([0.0, 0.7, -2.0, 9.0])])
    t = mf.tensor(np.array([0.0, 1.5, -3.0]))
    for f in (mf.i0, mf.special.i0e, mf.special.i1, mf.special.i1e):
        np.testing.assert_array_equal(f(t.to("testdev")).cpu().numpy(), f(t).numpy())


def test_kaiser_window_ldexp_frexp_ndtri():
    import math
    n, beta = 7, 5.0
    want = [np.i0(beta * math.sqrt(1 - ((k - (n - 1) / 2) / ((n - 1) / 2)) ** 2)) / np.i0(beta) for k in range(n)]
    np.testing.assert_allclose(mf.kaiser_window(n, periodic=False, beta=beta, dtype=mf.float64).numpy(), want,
                               rtol=1e-12)
    np.testing.assert_allclose(mf.kaiser_window(6, beta=beta, dtype=mf.float64).numpy(), want[:6], rtol=1e-12)
    assert mf.ldexp(mf.tensor([1.0, 3.0]), mf.tensor([2, -1])).tolist() == [4.0, 1.5]
    values = np.array([0.0, 1.0, -3.5, 0.1, 1e-30, 1024.0, np.inf])
    mantissa, exponent = mf.frexp(mf.tensor(values))
    want_m, want_e = np.frexp(values)
    np.testing.assert_array_equal(mantissa.numpy(), want_m)
    assert exponent.dtype == mf.int32 and exponent.tolist() == want_e.tolist()
    p = mf.tensor([0.025, 0.5, 0.975], dtype=mf.float64)
    np.testing.assert_allclose(mf.special.ndtri(p).numpy(), [-1.959963984540054, 0.0, 1.959963984540054], atol=1e-12)
    np.testing.assert_allclose(mf.special.log_ndtr(mf.tensor([-3.0, 0.0, 2.0], dtype=mf.float64)).numpy(),
                               [math.log(0.5 * math.erfc(3 / math.sqrt(2))), math.log(0.5),
                                math.log(0.5 * math.erfc(-2 / math.sqrt(2)))], rtol=1e-12)


def test_gcd_lcm_nextafter():
    a = np.array([12, -18, 0, 7, 0])
    b = np.array([8, 27, 5, 0, 0])
    assert mf.gcd(mf.tensor(a), mf.tensor(b)).tolist() == np.gcd(a, b).tolist()
    assert mf.tensor(a).lcm(mf.tensor(b)).tolist() == np.lcm(a, b).tolist()
    assert mf.gcd(mf.tensor([[4], [6]]), mf.tensor([6, 9])).tolist() == [[2, 1], [6, 3]]
    with pytest.raises(RuntimeError, match="not implemented"):
        mf.gcd(mf.tensor([1.0]), mf.tensor([2.0]))
    x = mf.tensor([1.0, 2.0])
    np.testing.assert_array_equal(mf.nextafter(x, mf.tensor([2.0, 0.0])).numpy(),
                                  np.nextafter(np.float32([1, 2]), np.float32([2, 0])))
