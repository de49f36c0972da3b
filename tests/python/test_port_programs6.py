"""What transformer / LLM programs met (issue 37, sixth programs round: GPT-2 generation with a
KV cache, LLaMA blocks, BERT and T5 encoders, nanoGPT's training script, MoE layers, LoRA),
against NumPy references and torch's documented rules."""
import copy
import inspect
import io
import math
import pickle
import warnings

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F


def _randn(seed, *shape, scale=1.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


def _np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


# ---- compile(module) is torch's OptimizedModule: `_orig_mod`, its state_dict names, eager calls

class _Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.config = {"n_layer": 1}

    def forward(self, x):
        return self.fc(x).relu()


def test_compiled_module_wraps_as_torch_s_optimized_module():
    net = _Net()
    compiled = mf.compile(net)
    assert compiled._orig_mod is net and isinstance(compiled, mf._dynamo.eval_frame.OptimizedModule)
    assert list(compiled.state_dict()) == ["_orig_mod.fc.weight", "_orig_mod.fc.bias"]  # as torch's
    assert [n for n, _ in compiled.named_parameters()] == ["_orig_mod.fc.weight", "_orig_mod.fc.bias"]
    x = mf.tensor(_randn(0, 4, 3))
    assert compiled(x).numpy().tolist() == net(x).numpy().tolist()  # eager: the same values
    assert compiled.config == {"n_layer": 1}  # attributes read through
    compiled.config = {"n_layer": 2}  # and written through, as torch's
    assert net.config == {"n_layer": 2}
    assert pickle.loads(pickle.dumps(compiled))(x).numpy().tolist() == net(x).numpy().tolist()
    compiled.eval()
    assert not compiled.training and not net.training and not net.fc.training
    compiled.train()
    assert compiled.training and net.fc.training
    calls = []
    net.register_forward_hook(lambda m, args, out: calls.append(1))
    compiled(x)
    assert calls == [1]  # the module's own hooks run
    # nanoGPT's resume: strip the prefix, load into a plain model
    state = {k[len("_orig_mod."):]: v for k, v in compiled.state_dict().items()}
    fresh = _Net()
    fresh.load_state_dict(state)
    assert fresh(x).numpy().tolist() == net(x).numpy().tolist()
    again = copy.deepcopy(compiled)
    assert again._orig_mod is not net and again(x).numpy().tolist() == net(x).numpy().tolist()
    # gradients reach the module's parameters; an optimizer over either sees the same tensors
    opt = mf.optim.SGD(compiled.parameters(), lr=0.1)
    compiled(x).sum().backward()
    assert net.fc.weight.grad is not None
    opt.step()


def test_compile_spellings_and_dynamo_settings():
    f = lambda a: a * 2  # noqa: E731
    assert mf.compile(f) is f and mf.compile(mode="max-autotune")(f) is f
    deco = mf.compile(fullgraph=True, dynamic=False)(_Net())
    assert isinstance(deco, mf._dynamo.OptimizedModule)
    net = _Net()
    assert net.compile() is None and list(net.state_dict()) == ["fc.weight", "fc.bias"]  # in place: names stay
    assert not mf.compiler.is_compiling() and mf.compiler.disable(f) is f and mf.compiler.disable()(f) is f
    mf._dynamo.config.optimize_ddp = False
    mf._dynamo.config.cache_size_limit = 64
    assert mf._dynamo.config.cache_size_limit == 64
    mf._dynamo.reset()
    with pytest.warns(FutureWarning, match="sdp_kernel"):
        with mf.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False, enable_mem_efficient=False):
            q = mf.tensor(_randn(1, 1, 1, 3, 4))
            got = F.scaled_dot_product_attention(q, q, q).numpy()
    qn = _randn(1, 1, 1, 3, 4)
    want = _np_softmax(qn @ qn.swapaxes(-1, -2) / 2.0) @ qn
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_manual_seed_returns_the_default_generator_and_cuda_bf16_query():
    assert mf.manual_seed(3) is mf.default_generator
    assert mf.cuda.is_bf16_supported() == mf.cuda.is_available()


# ---- containers take any integer with __index__ (MoE code indexes experts by nonzero() rows)

def test_module_list_takes_one_element_tensors_and_numpy_ints():
    layers = nn.ModuleList([nn.Linear(2, 2), nn.ReLU(), nn.Tanh()])
    assert layers[mf.tensor([1])] is layers[1] and layers[np.int64(-1)] is layers[2]
    assert nn.Sequential(nn.ReLU(), nn.Tanh())[mf.tensor(0)].__class__ is nn.ReLU
    with pytest.raises(TypeError, match="indices must be integers"):
        layers[1.0]
    with pytest.raises(IndexError):
        layers[mf.tensor(3)]


def test_mixtral_sparse_moe_matches_a_dense_reference():
    d, e, k = 4, 3, 2
    gate = nn.Linear(d, e, bias=False)
    experts = nn.ModuleList([nn.Linear(d, d, bias=False) for _ in range(e)])
    wg, we = _randn(1, e, d), [_randn(2 + i, d, d) for i in range(e)]
    with mf.no_grad():
        gate.weight.copy_(mf.tensor(wg))
        for lin, w in zip(experts, we):
            lin.weight.copy_(mf.tensor(w))
    xs = _randn(5, 6, d)
    x = mf.tensor(xs)
    routing = F.softmax(gate(x), dim=1, dtype=mf.float)
    routing, selected = mf.topk(routing, k, dim=-1)
    routing /= routing.sum(dim=-1, keepdim=True)
    final = mf.zeros((6, d), dtype=x.dtype)
    expert_mask = F.one_hot(selected, num_classes=e).permute(2, 1, 0)
    for expert_idx in mf.greater(expert_mask.sum(dim=(-1, -2)), 0).nonzero():
        idx, top_x = mf.where(expert_mask[expert_idx].squeeze(0))
        current = experts[expert_idx](x[None, top_x].reshape(-1, d)) * routing[top_x, idx, None]
        final.index_add_(0, top_x, current.to(x.dtype))
    probs = _np_softmax(xs @ wg.T)
    want = np.zeros_like(xs)
    for t in range(6):
        top = np.argsort(-probs[t], kind="stable")[:k]
        w = probs[t, top] / probs[t, top].sum()
        want[t] = sum(wi * (we[j] @ xs[t]) for wi, j in zip(w, top))
    np.testing.assert_allclose(final.numpy(), want, rtol=1e-5, atol=1e-6)


# ---- optimizer groups keep keys that are no option, as torch's

def test_param_groups_keep_extra_keys():
    w, b = nn.Parameter(mf.ones(2, 2)), nn.Parameter(mf.ones(2))
    opt = mf.optim.AdamW([{"params": [w], "weight_decay": 0.1, "name": "decay"},
                          {"params": [b], "weight_decay": 0.0, "name": "no_decay"}], lr=1e-2, betas=(0.9, 0.95))
    assert [g["name"] for g in opt.param_groups] == ["decay", "no_decay"]
    assert opt.state_dict()["param_groups"][1]["name"] == "no_decay"
    (w.sum() + b.sum()).backward()
    opt.step()  # the tag changes nothing: AdamW's first step moves each weight by lr (+ decay)
    np.testing.assert_allclose(w.detach().numpy(), 1 - 1e-2 * 0.1 - 1e-2, rtol=1e-5)
    np.testing.assert_allclose(b.detach().numpy(), 1 - 1e-2, rtol=1e-5)


# ---- loading as gpt-fast and Hugging Face do: assign=True, skip_init; CUDA queries on the CPU

def test_load_state_dict_assign_takes_the_tensors_themselves():
    class Tied(nn.Module):
        def __init__(self):
            super().__init__()
            self.wte = nn.Embedding(4, 3)
            self.head = nn.Linear(3, 4, bias=False)
            self.head.weight = self.wte.weight
            self.register_buffer("scale", mf.ones(3))

    m = Tied()
    m.wte.weight.requires_grad_(False)
    w = mf.tensor(_randn(7, 4, 3), dtype=mf.float64)
    scale = mf.full((3,), 2.0)
    result = m.load_state_dict({"wte.weight": w, "scale": scale}, assign=True)
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert m.head.weight is m.wte.weight and isinstance(m.wte.weight, nn.Parameter)  # still tied
    assert m.wte.weight.dtype == mf.float64 and not m.wte.weight.requires_grad  # the given dtype, the module's flag
    assert m.scale is scale
    np.testing.assert_allclose(m.wte.weight.detach().numpy(), _randn(7, 4, 3).astype(np.float64), rtol=1e-6)
    with pytest.raises(RuntimeError, match="size mismatch"):
        m.load_state_dict({"wte.weight": mf.zeros(2, 3)}, assign=True, strict=False)


def test_skip_init_and_cuda_memory_queries_without_a_gpu():
    lin = nn.utils.skip_init(nn.Linear, 3, 4, bias=False)
    assert tuple(lin.weight.shape) == (4, 3) and lin.bias is None
    if mf.cuda.is_available():
        pytest.skip("the queries answer for the GPU here")
    # torch's answers where CUDA was never initialized: scripts call these unconditionally
    assert mf.cuda.empty_cache() is None and mf.cuda.memory_allocated() == 0
    assert mf.cuda.max_memory_allocated() == 0 and mf.cuda.memory_reserved() == 0 and mf.cuda.memory_stats() == {}
    with pytest.raises(ValueError, match="does not exist"):
        mf.cuda.reset_peak_memory_stats()  # torch raises here too


# ---- generation as Hugging Face writes it: a KV cache of tuples grown with cat, left padding

class _TinyGPT(nn.Module):
    def __init__(self, vocab=11, dim=8, heads=2, block=16):
        super().__init__()
        self.heads, self.dim = heads, dim
        self.wte, self.wpe = nn.Embedding(vocab, dim), nn.Embedding(block, dim)
        self.c_attn, self.c_proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.register_buffer("bias", mf.tril(mf.ones((block, block), dtype=mf.bool)).view(1, 1, block, block),
                             persistent=False)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.wte.weight
        for i, p in enumerate(self.parameters()):
            with mf.no_grad():
                p.copy_(mf.tensor(_randn(10 + i, *p.shape, scale=0.7)))

    def forward(self, ids, past=None, attention_mask=None, position_ids=None):
        b, s = ids.shape
        past_len = 0 if past is None else past[0].size(-2)
        if position_ids is None:
            position_ids = mf.arange(past_len, past_len + s, dtype=mf.long).unsqueeze(0)
        x = self.wte(ids) + self.wpe(position_ids)
        q, k, v = [t.view(b, s, self.heads, -1).permute(0, 2, 1, 3) for t in self.c_attn(x).split(self.dim, dim=2)]
        if past is not None:
            k, v = mf.cat((past[0], k), dim=-2), mf.cat((past[1], v), dim=-2)
        w = mf.matmul(q, k.transpose(-1, -2)) / (v.size(-1) ** 0.5)
        kl = k.size(-2)
        w = mf.where(self.bias[:, :, kl - s:kl, :kl], w, mf.full([], mf.finfo(w.dtype).min, dtype=w.dtype))
        if attention_mask is not None:
            w = w + (1.0 - attention_mask[:, None, None, :].to(mf.float32)) * mf.finfo(mf.float32).min
        o = mf.matmul(w.softmax(-1), v).permute(0, 2, 1, 3).contiguous().view(b, s, self.dim)
        return self.lm_head(x + self.c_proj(o)), (k, v)


def test_gpt2_style_generation_with_a_kv_cache_and_left_padding():
    model = _TinyGPT().eval()
    assert list(model.state_dict()) == ["wte.weight", "wpe.weight", "c_attn.weight", "c_attn.bias", "c_proj.weight",
                                        "c_proj.bias", "lm_head.weight"]  # tied twice, the mask not at all
    ids = mf.tensor([[3, 7, 1, 2], [5, 5, 9, 1]])
    with mf.no_grad():
        cached, past, cur = ids, None, ids
        for _ in range(5):
            logits, past = model(cur, past)
            cur = mf.argmax(logits[:, -1, :], dim=-1, keepdim=True)
            cached = mf.cat([cached, cur], dim=-1)
        plain = ids
        for _ in range(5):
            plain = mf.cat([plain, model(plain)[0][:, -1].argmax(-1).unsqueeze(-1)], 1)
        assert cached.tolist() == plain.tolist() and tuple(past[0].shape) == (2, 2, 8, 4)
        # a left-padded batch generates what each prompt generates alone
        padded = mf.tensor([[0, 0, 3, 7], [5, 5, 9, 1]])
        mask = mf.tensor([[0, 0, 1, 1], [1, 1, 1, 1]])
        pos = mask.long().cumsum(-1) - 1
        pos.masked_fill_(mask == 0, 1)
        gen, past, cur = padded, None, padded
        for _ in range(4):
            logits, past = model(cur, past, attention_mask=mask, position_ids=pos)
            cur = logits[:, -1, :].argmax(-1, keepdim=True)
            gen = mf.cat([gen, cur], 1)
            mask = mf.cat([mask, mask.new_ones((2, 1))], dim=-1)
            pos = pos[:, -1:] + 1
        alone = mf.tensor([[3, 7]])
        for _ in range(4):
            alone = mf.cat([alone, model(alone)[0][:, -1].argmax(-1).unsqueeze(-1)], 1)
        assert gen[0, 2:].tolist() == alone[0].tolist() and gen[1].tolist() == plain[1, :8].tolist()


def _assert_filtered(got, want):
    got = got.numpy()
    assert np.isneginf(got).tolist() == np.isneginf(want).tolist()
    np.testing.assert_allclose(np.where(np.isinf(got), 0, got), np.where(np.isinf(want), 0, want), rtol=1e-6)


def test_top_k_top_p_and_repetition_penalty_as_hugging_face_writes_them():
    scores_np = _randn(20, 2, 12, scale=2.0)
    ids_np = np.array([[1, 3, 3], [0, 11, 5]])
    scores, ids = mf.tensor(scores_np), mf.tensor(ids_np)
    score = mf.gather(scores, 1, ids)
    score = mf.where(score < 0, score * 1.3, score / 1.3)
    scores = scores.clone().scatter_(1, ids, score) / 0.7
    want = scores_np.copy()
    for r in range(2):
        for c in set(ids_np[r]):
            want[r, c] = want[r, c] * 1.3 if want[r, c] < 0 else want[r, c] / 1.3
    want /= 0.7
    np.testing.assert_allclose(scores.numpy(), want, rtol=1e-6)
    topk = scores.masked_fill(scores < mf.topk(scores, 4)[0][..., -1, None], -float("Inf"))
    want_k = np.where(want < np.sort(want, -1)[:, -4:-3], -np.inf, want)
    _assert_filtered(topk, want_k)
    sorted_logits, sorted_indices = mf.sort(scores, descending=False)
    cumulative = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    remove = cumulative <= (1 - 0.9)
    remove[..., -1:] = 0
    remove = remove.scatter(1, sorted_indices, remove)
    assert remove.dtype == mf.bool
    top_p = scores.masked_fill(remove, -float("Inf"))
    want_p = want.copy()
    for r in range(2):
        order = np.argsort(want[r], kind="stable")
        cum = np.cumsum(_np_softmax(want[r][order].astype(np.float64)))
        drop = order[:-1][cum[:-1] <= 0.1 + 1e-7]
        want_p[r, drop] = -np.inf
    _assert_filtered(top_p, want_p)
    probs = F.softmax(top_p, dim=-1)
    sample = mf.multinomial(probs, num_samples=1, generator=mf.Generator().manual_seed(0))
    assert mf.isfinite(mf.gather(top_p, 1, sample)).all()


# ---- LLaMA's rotary embedding and T5's relative position buckets, against NumPy

def test_llama_rotary_with_rotate_half_and_t5_buckets():
    hd, t = 8, 6
    inv_freq = 1.0 / (10000 ** (mf.arange(0, hd, 2, dtype=mf.int64).float() / hd))
    freqs = (inv_freq[None, :, None].expand(1, -1, 1) @ mf.arange(t)[None, None, :].float()).transpose(1, 2)
    emb = mf.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos(), emb.sin()
    q_np = _randn(30, 1, 2, t, hd)
    q = mf.tensor(q_np)
    rotated = q * cos.unsqueeze(1) + mf.cat((-q[..., hd // 2:], q[..., :hd // 2]), dim=-1) * sin.unsqueeze(1)
    ang = np.arange(t)[:, None] * (1.0 / 10000 ** (np.arange(0, hd, 2) / hd))[None, :]
    x1, x2 = q_np[..., :hd // 2], q_np[..., hd // 2:]
    want = np.concatenate([x1 * np.cos(ang) - x2 * np.sin(ang), x2 * np.cos(ang) + x1 * np.sin(ang)], -1)
    np.testing.assert_allclose(rotated.numpy(), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mf.outer(mf.arange(t).float(), inv_freq).numpy(), ang, rtol=1e-6)

    rel = mf.arange(40)[None, :] - mf.arange(40)[:, None]
    buckets = 16 * (rel > 0).to(mf.long)
    n = mf.abs(rel)
    large = 8 + (mf.log(n.float() / 8) / math.log(128 / 8) * 8).to(mf.long)
    large = mf.min(large, mf.full_like(large, 15))
    buckets = buckets + mf.where(n < 8, n, large)
    r = np.arange(40)[None, :] - np.arange(40)[:, None]
    a = np.abs(r)
    big = np.minimum(8 + (np.log(np.maximum(a, 1) / 8) / np.log(16) * 8).astype(np.int64), 15)
    want_b = 16 * (r > 0) + np.where(a < 8, a, big)
    assert buckets.dtype == mf.int64 and buckets.numpy().tolist() == want_b.tolist()


def test_device_as_a_context_manager():
    with mf.device("cpu") as d:
        x, lin = mf.ones(2), nn.Linear(2, 2)
    assert d == mf.device("cpu") and x.device == d and lin.weight.device == d
    with mf.device("testdev"):  # any device is a default one, restored on exit
        y = mf.zeros(3)
    assert y.device.type == "testdev" and mf.ones(1).device == mf.device("cpu")


def test_autocast_queries_name_a_device_as_torch_s():
    assert not mf.is_autocast_enabled("cpu") and mf.get_autocast_dtype("cpu") == mf.bfloat16
    with mf.autocast("cpu", dtype=mf.float16):
        assert mf.is_autocast_enabled("cpu") and mf.is_autocast_cpu_enabled()
        assert not mf.is_autocast_enabled()  # no argument: CUDA's, as torch's
        assert mf.get_autocast_dtype("cpu") == mf.float16 and mf.get_autocast_cpu_dtype() == mf.float16
        assert mf.get_autocast_gpu_dtype() == mf.float16 and mf.get_autocast_dtype("cuda") == mf.float16
    with mf.autocast("cpu", dtype=mf.bfloat16):
        assert mf.get_autocast_gpu_dtype() == mf.float16  # CUDA's default, not the CPU block's


# ---- NumPy's names and sequences as torch's parser takes them (Karpathy's makemore)

def test_axis_and_keepdims_as_torch_s_parser_takes_them():
    a = _randn(40, 3, 4)
    x = mf.tensor(a)
    np.testing.assert_allclose(x.sum(1, keepdims=True).numpy(), a.sum(1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(mf.mean(x, axis=0).numpy(), a.mean(0), rtol=1e-6)
    np.testing.assert_allclose(x.amax(axis=1).numpy(), a.max(1))  # a method in C: keywords reach Python
    np.testing.assert_allclose(x.std(axis=1, keepdims=True).numpy(), a.std(1, ddof=1, keepdims=True), rtol=1e-5)
    assert x.max(axis=1).indices.numpy().tolist() == a.argmax(1).tolist()
    assert tuple(mf.cat([x, x], axis=1).shape) == (3, 8) and tuple(x.softmax(axis=-1).shape) == (3, 4)
    with pytest.raises(TypeError, match="both 'dim' and its NumPy name 'axis'"):
        x.sum(dim=1, axis=1)
    assert mf.sum.__name__ == "sum" and "keepdim" in str(inspect.signature(mf.Tensor.mean))


def test_makemore_manual_backprop_matches_autograd():
    n, v = 6, 5
    logits = mf.tensor(_randn(41, n, v), requires_grad=True)
    y = mf.tensor([0, 4, 2, 2, 1, 3])
    counts = logits.exp()
    probs = counts * counts.sum(1, keepdims=True) ** -1
    logprobs = probs.log()
    logprobs.retain_grad()
    loss = -logprobs[range(n), y].mean()
    loss.backward()
    dlogprobs = mf.zeros_like(logprobs)
    dlogprobs[range(n), y] = -1.0 / n
    assert mf.all(dlogprobs == logprobs.grad).item()
    dlogits = F.softmax(logits, 1)
    dlogits[range(n), y] -= 1
    dlogits /= n
    np.testing.assert_allclose(dlogits.detach().numpy(), logits.grad.numpy(), rtol=1e-5, atol=1e-7)
    p = _np_softmax(_randn(41, n, v))
    assert np.isclose(loss.item(), -np.log(p[np.arange(n), [0, 4, 2, 2, 1, 3]]).mean(), rtol=1e-6)
