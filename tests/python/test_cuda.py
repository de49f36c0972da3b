"""The CUDA device from Python: every tensor's work on a GPU equals the CPU's within float32
rounding (GPU kernels round differently: fused multiply-adds, the order of sums, their math
library). Skipped, saying why, where no GPU is visible; scripts/test-gpu runs it on one."""

import numpy as np
import pytest

import meshflow as mf
from test_device import _checkpoint_round_trip, _global_step, _graph_steps, _mlp_step
from test_fused_programs import CHAINS, check_graph_equals_eager
from test_module_zoo import ZOO, check_against_cpu


def _gpus():
    if "cuda" not in mf.device_types():
        return 0
    try:
        mf.zeros(1, device="cuda")
        return 1
    except ValueError:
        return 0


pytestmark = pytest.mark.skipif(not _gpus(), reason="no GPU visible (or meshflow built without CUDA): "
                                                    "scripts/test-gpu runs these on a machine with one")

TOL = dict(rtol=1e-4, atol=1e-5)


def test_a_model_step_on_the_gpu_equals_the_cpu():
    loss_cpu, grads_cpu = _mlp_step("cpu")
    loss_gpu, grads_gpu = _mlp_step("cuda")
    assert loss_gpu.device == "cuda:0" and all(g.device == "cuda:0" for g in grads_gpu)
    np.testing.assert_allclose(loss_gpu.numpy(), loss_cpu.numpy(), **TOL)
    for g_gpu, g_cpu in zip(grads_gpu, grads_cpu):
        np.testing.assert_allclose(g_gpu.numpy(), g_cpu.numpy(), **TOL)


def test_global_tensors_on_the_gpu_equal_the_cpu():
    loss_cpu, grad_cpu, _ = _global_step("cpu")
    loss_gpu, grad_gpu, where = _global_step("cuda")
    assert where == "cuda:0"
    np.testing.assert_allclose(loss_gpu, loss_cpu, **TOL)
    np.testing.assert_allclose(grad_gpu, grad_cpu, **TOL)


@pytest.mark.parametrize("micro_batches", [1, 3])
@pytest.mark.parametrize("fusion", [True, False])
def test_graphs_on_the_gpu_train_as_on_the_cpu(micro_batches, fusion):
    loss_cpu, w_cpu, step_cpu = _graph_steps("cpu", micro_batches, fusion)
    loss_gpu, w_gpu, step_gpu = _graph_steps("cuda", micro_batches, fusion)
    np.testing.assert_allclose(loss_gpu, loss_cpu, **TOL)
    for a, b in zip(w_cpu, w_gpu):
        np.testing.assert_allclose(b, a, **TOL)
    # The GPU fuses the chains the CPU fuses (chain programs, one launch each): the CPU's plan.
    assert step_gpu.memory_plan() == step_cpu.memory_plan()
    assert (step_gpu.compile_stats()["fused_chains"] >= 1) == fusion


@pytest.mark.parametrize("name", list(CHAINS))
def test_fused_chains_on_the_gpu_equal_eager(name):
    """Every chain the CPU fuses is one chain program on the GPU (chain.cu), equal to the
    GPU's eager kernels: the interpreter the test device runs in test_fused_programs.py."""
    check_graph_equals_eager("cuda", name)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_clip_grad_norm_s_fused_squares_on_the_gpu_equal_the_cpu(dtype):
    """sum_squares's CUDA kernel (32 inputs a launch, a fixed-order total): 40 gradients,
    empty, 0-d and larger than a block's share, as the CPU's norm and clipped gradients."""
    rng = np.random.default_rng(7)
    shapes = [(0,), ()] + [(int(n),) for n in rng.integers(1, 3000, 37)] + [(300000,)]
    grads = [rng.standard_normal(s).astype(dtype) for s in shapes]

    def clip(device):
        params = [mf.zeros(*s, dtype=mf.float32 if dtype == np.float32 else mf.float64, device=device).requires_grad_()
                  for s in shapes]
        for p, g in zip(params, grads):
            p.grad = mf.tensor(g, device=device)
        norm = mf.nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True)
        return float(norm), [p.grad.cpu().numpy() for p in params]

    (norm_cpu, cpu), (norm_gpu, gpu) = clip("cpu"), clip("cuda")
    assert norm_gpu == pytest.approx(norm_cpu, rel=1e-6)
    for a, b in zip(gpu, cpu):
        np.testing.assert_allclose(a, b, **TOL)


def test_creation_and_random_values_equal_the_cpu():
    mf.manual_seed(5)
    on_cpu = mf.randn(300, 7)
    mf.manual_seed(5)
    on_gpu = mf.randn(300, 7, device="cuda")
    assert on_gpu.device == "cuda:0"
    np.testing.assert_allclose(on_gpu.numpy(), on_cpu.numpy(), rtol=1e-6, atol=1e-6)
    assert mf.arange(5, device="cuda").numpy().tolist() == [0, 1, 2, 3, 4]
    assert mf.full((2,), 7, device="cuda").numpy().tolist() == [7, 7]


def test_moves_between_the_gpu_and_the_cpu_carry_values_and_gradients():
    x = mf.tensor([1.0, -2.0, 3.0], requires_grad=True)
    on_gpu = x.to("cuda")
    assert on_gpu.device == mf.device("cuda", 0) and on_gpu.to("cuda") is on_gpu and on_gpu.cuda() is on_gpu
    back = (on_gpu * 2.0).cpu()
    assert back.device == "cpu" and back.numpy().tolist() == [2.0, -4.0, 6.0]
    back.sum().backward()
    assert x.grad.device == "cpu" and x.grad.numpy().tolist() == [2.0, 2.0, 2.0]


def test_a_bad_index_on_the_gpu_raises_the_cpus_error():
    table = mf.tensor(np.ones((4, 3), np.float32), device="cuda")
    with pytest.raises(ValueError, match="out of range"):
        mf.nn.functional.embedding(mf.tensor([1, 7], device="cuda"), table).numpy()


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_on_the_gpu_equals_the_cpu(mode):
    """Values and gradients, with an empty bag, one of padding only and ties under max; the
    CPU's errors for bad offsets."""
    indices, offsets = np.array([1, 2, 3, 5, 3, 3, 2, 9, 0, 0, 7, 3]), np.array([0, 4, 4, 6, 10])
    weight = np.round(np.sin(np.arange(50.0)).reshape(10, 5) * 2) / 2
    per_sample = np.linspace(0.5, 2, 12) if mode == "sum" else None

    def run(device):
        w = mf.tensor(weight, device=device, requires_grad=True)
        s = None if per_sample is None else mf.tensor(per_sample, device=device, requires_grad=True)
        y = mf.nn.functional.embedding_bag(mf.tensor(indices, device=device), w, mf.tensor(offsets, device=device),
                                           mode=mode, padding_idx=3, per_sample_weights=s, include_last_offset=True)
        rows = mf.nn.functional.embedding_bag(mf.tensor(indices.reshape(3, 4), device=device), w, mode=mode)
        ((y * y).sum() + (rows * rows).sum()).backward()
        return [y.detach().numpy(), rows.detach().numpy(), w.grad.numpy()] + ([] if s is None else [s.grad.numpy()])

    for on_gpu, on_cpu in zip(run("cuda"), run("cpu")):
        np.testing.assert_allclose(on_gpu, on_cpu, rtol=1e-12, atol=1e-12)
    with pytest.raises(RuntimeError, match="offsets start at 1; expected 0"):
        mf.nn.functional.embedding_bag(mf.tensor(indices, device="cuda"), mf.tensor(weight, device="cuda"),
                                       mf.tensor([1, 3], device="cuda")).numpy()


def test_memory_is_counted_and_reused():
    mf.synchronize()
    before = mf.memory_stats("cuda")
    x = mf.zeros(1 << 20, device="cuda")
    mf.synchronize()  # ops run asynchronously: the kernel takes its output's memory when it runs
    assert mf.memory_stats("cuda")["in_use_bytes"] >= before["in_use_bytes"] + 4 * (1 << 20)
    del x
    mf.synchronize()
    assert mf.memory_stats("cuda")["in_use_bytes"] == before["in_use_bytes"]


def test_indexing_sampling_and_einsum_on_the_gpu_equal_the_cpu():
    rng = np.random.default_rng(8)
    a = rng.standard_normal((40, 30)).astype(np.float32)
    idx = rng.integers(-40, 40, (500,))  # repeats: index_put's order decides, accumulate adds
    cols = rng.integers(0, 30, (500,))
    v = rng.standard_normal(500).astype(np.float32)
    results = {}
    for device in ("cpu", "cuda"):
        x = mf.tensor(a, device=device, requires_grad=True)
        i, j = mf.tensor(idx, device=device), mf.tensor(cols, device=device)
        vals = mf.tensor(v, device=device, requires_grad=True)
        picked = x[i, j] * 2 + x[x > 1.0].sum()
        put = mf.index_put(x, (i, j), vals) + mf.index_put(x, (i, j), vals, accumulate=True)
        added = mf.scatter_add(x, 1, mf.tensor(cols.reshape(20, 25) % 30, device=device),
                               mf.tensor(v[:500].reshape(20, 25), device=device))
        both = mf.einsum("ij,kj->ik", x, x)
        (picked.sum() + put.sum() + added.sum() + both.sum()).backward()
        mf.manual_seed(3)
        draws = [mf.randperm(1000, device=device), mf.randint(-5, 5, (64,), device=device)]
        results[device] = [t.numpy() for t in [picked, put, added, both, x.grad, vals.grad] + draws]
    for on_cpu, on_gpu in zip(results["cpu"], results["cuda"]):
        np.testing.assert_allclose(on_gpu, on_cpu, rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="index 40 is out of bounds for dimension 0 with size 40"):
        mf.tensor(a, device="cuda")[mf.tensor([0, 40], device="cuda")].numpy()


def _max_error(got, expected):
    """The largest difference, relative to the largest expected magnitude."""
    return np.abs(got - expected).max() / (1 + np.abs(expected).max())


@pytest.mark.parametrize("shape, causal", [((2, 200, 3, 64), True),    # partial tiles, the GPT's head dim
                                           ((1, 77, 2, 40), False),    # a head dim padded to 64
                                           ((2, 130, 2, 96), True)])   # the 128-wide kernels
def test_bfloat16_attention_on_tensor_cores_equals_the_cpu(shape, causal):
    """Under autocast the attention runs in bfloat16 (tensor cores on the GPU) and returns it:
    out and qkv's (float32) gradient within bfloat16's rounding of the CPU's."""
    import meshflow.nn.functional as F
    rng = np.random.default_rng(4)
    qkv = rng.standard_normal(shape[:-1] + (3 * shape[-1],)).astype(np.float32)
    weights = rng.standard_normal(shape).astype(np.float32)
    results = {}
    for device in ("cpu", "cuda"):
        x = mf.tensor(qkv, device=device, requires_grad=True)
        with mf.autocast(device, dtype=mf.bfloat16):
            out = F.packed_qkv_attention(x, is_causal=causal)
        (out * mf.tensor(weights, device=device)).sum().backward()
        assert out.dtype == mf.bfloat16 and x.grad.dtype == mf.float32
        results[device] = (out.float().numpy(), x.grad.numpy())
    for got, expected in zip(results["cuda"], results["cpu"]):
        assert _max_error(got, expected) < 1e-2


@pytest.mark.parametrize("causal", [False, True])
def test_bfloat16_attention_of_separate_inputs_equals_the_cpu(causal):
    """bfloat16 q, k, v of different lengths and value width: bfloat16 out and gradients."""
    import meshflow.nn.functional as F
    rng = np.random.default_rng(5)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in ((2, 3, 50, 64), (2, 3, 90, 64), (2, 3, 90, 32))]
    weights = rng.standard_normal((2, 3, 50, 32)).astype(np.float32)
    results = {}
    for device in ("cpu", "cuda"):
        q, k, v = [mf.tensor(a, device=device).to(mf.bfloat16).requires_grad_() for a in arrays]
        out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        assert out.dtype == mf.bfloat16
        (out.float() * mf.tensor(weights, device=device)).sum().backward()
        results[device] = [t.float().numpy() for t in (out, q.grad, k.grad, v.grad)]
    for got, expected in zip(results["cuda"], results["cpu"]):
        assert _max_error(got, expected) < 2e-2


def test_a_checkpoint_saved_from_the_gpu_loads_on_the_cpu_and_back(tmp_path):
    """Saved from the GPU, the state loads on the CPU; loaded back into a model on the GPU,
    training goes on as the original's (the same kernels on the same values: equal up to
    any reordering a GPU library may choose between calls)."""
    state, model, restored, losses = _checkpoint_round_trip("cuda", tmp_path / "ckpt")
    assert all(t.device.type == "cpu" for t in state["model"].values())
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-6)
    for a, b in zip(model.parameters(), restored.parameters()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-7)
    cpu_model = mf.nn.Sequential(mf.nn.Linear(6, 12), mf.nn.GELU(), mf.nn.Linear(12, 3))
    cpu_model.load_state_dict(state["model"])
    for name, p in cpu_model.named_parameters():
        np.testing.assert_array_equal(p.numpy(), state["model"][name].numpy())


def test_kernels_are_timed_only_when_profiling():
    """mf.cuda.kernel_times reports nothing unless MESHFLOW_PROFILE=1 (then bench/gpt_bench.py
    prints the table)."""
    import os
    if os.environ.get("MESHFLOW_PROFILE", "0") not in ("", "0"):
        pytest.skip("MESHFLOW_PROFILE is set: kernels are timed")
    (mf.ones(4, device="cuda") + 1).numpy()
    assert mf.cuda.kernel_times() == []


def test_a_graph_on_the_gpu_prints_its_plan():
    """Last in this file: printing a compiled GPU graph once crashed the process. The earlier
    tests' plans are collected first and the plan printed by itself, so that a crash's stack
    says which of the two it was (the test device prints while its kernels run and plans are
    collected: test_device.py)."""
    import gc
    step = _graph_steps("cuda", 1, False)[2]
    gc.collect()
    text = str(step._compiled_last())  # CompiledGraph::str alone
    assert "traced nodes" in text and repr(step).endswith(text)


@pytest.mark.parametrize("moved", [False, True], ids=["device=", "to"])
@pytest.mark.parametrize("name", sorted(ZOO))
def test_every_module_on_the_gpu_equals_the_cpu(name, moved):
    """Each of meshflow.nn's modules built on the GPU (device=) or moved there (module.to):
    its parameters, buffers, outputs and gradients there and equal to the CPU's."""
    check_against_cpu(name, "cuda:0", mf.float32, moved, TOL)


def _norms_and_dropout(device):
    """batch_norm and group_norm forward and backward on values far from 0 (shifted sums:
    ops/norm_math.h), and dropout's mask."""
    import meshflow.nn.functional as F
    rng = np.random.default_rng(4)
    x_np = (1000 + rng.standard_normal((4, 6, 5, 3))).astype(np.float32)
    dy = mf.tensor(rng.standard_normal(x_np.shape).astype(np.float32), device=device)
    out = {}
    for name in ("batch_norm", "group_norm"):
        x = mf.tensor(x_np, device=device, requires_grad=True)
        w = mf.tensor(np.linspace(0.5, 2, 6).astype(np.float32), device=device, requires_grad=True)
        b = mf.tensor(np.linspace(-1, 1, 6).astype(np.float32), device=device, requires_grad=True)
        y = F.batch_norm(x, None, None, w, b, training=True) if name == "batch_norm" else F.group_norm(x, 3, w, b)
        y.backward(dy)
        out[name] = [t.numpy() for t in (y, x.grad, w.grad, b.grad)]
    _, mask = mf._C.apply("dropout", [mf.ones(1000, device=device)._impl],
                          {"p": 0.3, "seed": 5, "offset": 0})
    out["dropout"] = [mf.Tensor(mask).numpy()]
    return out


def test_norms_and_dropout_on_the_gpu_equal_the_cpu():
    cpu, gpu = _norms_and_dropout("cpu"), _norms_and_dropout("cuda")
    for name in ("batch_norm", "group_norm"):
        for got, want in zip(gpu[name], cpu[name]):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=name)
    assert gpu["dropout"][0].tobytes() == cpu["dropout"][0].tobytes()  # the same draws and scale


def _group_steps(device, make, count):
    """`count` parameters of a few shapes in one group, three steps from fixed gradients."""
    rng = np.random.default_rng(2)
    shapes = [(7, 3), (5,), (2, 2, 2)]
    params = [mf.tensor(rng.standard_normal(shapes[i % 3]).astype(np.float32), device=device, requires_grad=True)
              for i in range(count)]
    grads = [rng.standard_normal(p.shape).astype(np.float32) for p in params]
    opt = make(params)
    for step in range(3):
        for p, g in zip(params, grads):
            p.grad = mf.tensor(g * (step + 1), device=device)
        opt.step()
    return [p.numpy() for p in params]


@pytest.mark.parametrize("count", [6, 300])  # 300: more tensors than one launch's table
@pytest.mark.parametrize("make", [lambda ps: mf.optim.AdamW(ps, lr=1e-2, weight_decay=0.1),
                                  lambda ps: mf.optim.Adam(ps, lr=1e-2, weight_decay=0.1, amsgrad=True),
                                  lambda ps: mf.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True)],
                         ids=["adamw", "adam", "sgd"])
def test_a_group_s_one_launch_step_gives_the_cpu_s_bits(make, count):
    for got, want in zip(_group_steps("cuda", make, count), _group_steps("cpu", make, count)):
        assert got.tobytes() == want.tobytes()


def test_autocast_caches_the_gpu_s_casts():
    import meshflow.nn as nn
    grads = {}
    for device in ("cpu", "cuda"):
        mf.manual_seed(5)
        lin = nn.Linear(16, 16).to(device)
        x = mf.tensor(np.random.default_rng(3).standard_normal((8, 16)).astype(np.float32), device=device)
        with mf.autocast(device, dtype=mf.bfloat16):
            for part in x.chunk(2):
                lin(mf.tanh(lin(part))).float().sum().backward()
            assert mf._C.autocast_cached_casts() == 2
        grads[device] = [p.grad.numpy() for p in lin.parameters()]
    for got, want in zip(grads["cuda"], grads["cpu"]):
        np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)
