"""The CUDA device from Python: every tensor's work on a GPU equals the CPU's within float32
rounding (GPU kernels round differently: fused multiply-adds, the order of sums, their math
library). Skipped, saying why, where no GPU is visible; scripts/test-gpu runs it on one."""

import numpy as np
import pytest

import meshflow as mf
from test_device import _global_step, _graph_steps, _mlp_step


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
    assert step_gpu.memory_plan() == step_cpu.memory_plan()


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
