"""What transformer / LLM programs met (issue 37, sixth programs round: GPT-2 generation with a
KV cache, LLaMA blocks, BERT and T5 encoders, nanoGPT's training script, MoE layers, LoRA),
against NumPy references and torch's documented rules."""
import copy
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
