"""Devices in Python: mf.device, mf.device_types, tensor.device, to / cpu, tensor(device=)."""

import numpy as np
import pytest

import meshflow as mf


def test_device_types_start_with_cpu():
    assert mf.device_types()[0] == "cpu"


@pytest.mark.parametrize("args, text, rep", [
    (("cpu",), "cpu", "device(type='cpu')"),
    (("cpu:0",), "cpu:0", "device(type='cpu', index=0)"),
    (("cpu", 1), "cpu:1", "device(type='cpu', index=1)"),
    ((mf.device("cpu:2"),), "cpu:2", "device(type='cpu', index=2)"),
])
def test_device_parses_as_torch(args, text, rep):
    d = mf.device(*args)
    assert str(d) == text and repr(d) == rep
    assert d == mf.device(text) and d == text and hash(d) == hash(mf.device(text))
    assert d.type == "cpu"


@pytest.mark.parametrize("args, error, match", [
    (("tpu",), ValueError, "'tpu' is not a registered device type; registered: cpu, testdev"),
    (("xla:0",), ValueError, "'xla' is not a registered device type"),
    (("cpu:x",), ValueError, "non-negative integer"),
    (("cpu:0", 1), ValueError, "has an index already"),
    (("cpu", -1), ValueError, "non-negative integer"),
    ((3,), TypeError, "device type name"),
])
def test_device_refuses_what_is_not_a_device(args, error, match):
    with pytest.raises(error, match=match):
        mf.device(*args)


def test_local_tensors_live_on_the_cpu():
    x = mf.tensor([1.0, 2.0])
    assert x.device == mf.device("cpu") and x.device.type == "cpu"
    assert x.cpu() is x and x.to("cpu") is x and x.to(mf.device("cpu")) is x
    assert mf.tensor([1, 2], device="cpu").device == "cpu"
    y = x.to("cpu", mf.float64)
    assert y.dtype == mf.float64 and np.array_equal(y.numpy(), [1.0, 2.0])
    assert x.to(dtype=mf.int32).dtype == mf.int32
    with pytest.raises(ValueError, match="'xla' is not a registered device type"):
        x.to("xla")
    with pytest.raises(ValueError, match="'xla' is not a registered device type"):
        mf.tensor([1.0], device="xla")
    with pytest.raises(TypeError, match="unexpected keyword"):
        x.to(pin=True)


def test_a_global_tensors_device_is_where_its_part_lives():
    g = mf.tensor([1.0, 2.0], placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.broadcast)
    assert g.device == mf.device("cpu")  # DTensor's meaning: this rank's device of the placement
    assert g.to(g.device) is g and g.cpu() is g  # where it is already
    with pytest.raises(RuntimeError, match="to_global with a placement"):
        g.to("testdev")
    pos = mf.arange(2, device=g.device)  # a forward's position ids: local, joining g as broadcast
    assert (g + pos).is_global and (g + pos).tolist() == [1.0, 3.0]
    with pytest.raises(ValueError, match="a device .* or a placement"):
        mf.tensor([1.0], device="cpu", placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.broadcast)


def _mlp_step(device):
    """One forward and backward of a small MLP with every tensor on `device`."""
    rng = np.random.default_rng(0)
    x = mf.tensor(rng.standard_normal((8, 5)).astype(np.float32), device=device)
    w1 = mf.tensor(rng.standard_normal((5, 7)).astype(np.float32), device=device, requires_grad=True)
    b1 = mf.tensor(rng.standard_normal(7).astype(np.float32), device=device, requires_grad=True)
    w2 = mf.tensor(rng.standard_normal((7, 3)).astype(np.float32), device=device, requires_grad=True)
    target = mf.tensor(rng.integers(0, 3, 8), device=device)
    h = mf.nn.functional.gelu(mf.matmul(x, w1) + b1)
    loss = mf.nn.functional.cross_entropy(mf.matmul(h, w2), target) + mf.log(mf.softmax(h, -1)).mean()
    loss.backward()
    return loss, [w1.grad, b1.grad, w2.grad]


def test_the_test_device_computes_what_the_cpu_does_bit_for_bit():
    """testdev's memory cannot be read by host code (its addresses are not host addresses):
    forward, backward and the reads below go through its kernels and copies only."""
    loss_cpu, grads_cpu = _mlp_step("cpu")
    loss_dev, grads_dev = _mlp_step("testdev")
    assert loss_dev.device == "testdev:0" and all(g.device == "testdev:0" for g in grads_dev)
    assert loss_dev.numpy().tobytes() == loss_cpu.numpy().tobytes()
    for g_dev, g_cpu in zip(grads_dev, grads_cpu):
        assert g_dev.numpy().tobytes() == g_cpu.numpy().tobytes()


def test_copies_between_devices_carry_values_and_gradients():
    x = mf.tensor([1.0, -2.0, 3.0], requires_grad=True)
    on_dev = x.to("testdev")
    assert on_dev.device == mf.device("testdev", 0) and on_dev.to("testdev") is on_dev
    back = (on_dev * 2.0).cpu()
    assert back.device == "cpu" and back.numpy().tolist() == [2.0, -4.0, 6.0]
    back.sum().backward()
    assert x.grad.device == "cpu" and x.grad.numpy().tolist() == [2.0, 2.0, 2.0]


def test_ops_refuse_inputs_on_different_devices():
    with pytest.raises(ValueError, match=r"\[add\] expected every input on one device, got testdev:0 and cpu"):
        mf.tensor([1.0], device="testdev") + mf.tensor([1.0])


def _global_step(device_type):
    rng = np.random.default_rng(1)
    p = mf.placement(device_type, ranks=[0])
    x = mf.tensor(rng.standard_normal((6, 4)).astype(np.float32), placement=p, sbp=mf.sbp.split(0))
    w = mf.tensor(rng.standard_normal((4, 3)).astype(np.float32), placement=p, sbp=mf.sbp.broadcast,
                  requires_grad=True)
    loss = mf.matmul(x, w).relu().sum()
    loss.backward()
    return loss.numpy(), w.grad.numpy(), w.grad.to_local().device


def test_global_tensors_on_the_test_device_equal_the_cpu():
    loss_cpu, grad_cpu, _ = _global_step("cpu")
    loss_dev, grad_dev, where = _global_step("testdev")
    assert where == "testdev:0"
    assert loss_dev.tobytes() == loss_cpu.tobytes() and grad_dev.tobytes() == grad_cpu.tobytes()


def _graph_steps(device, micro_batches, fusion):
    """Three graph-mode training steps of a small MLP on local tensors on `device`."""
    mf.manual_seed(5)
    # GELU then tanh: a chain of elementwise ops for graph mode to fuse (each Linear's bias
    # is in its matmul).
    model = mf.nn.Sequential(mf.nn.Linear(6, 12), mf.nn.GELU(), mf.nn.Tanh(), mf.nn.Linear(12, 3))
    for p in model.parameters():
        p.data = p.to(device).detach()
    opt = mf.optim.AdamW(model.parameters(), lr=1e-2)

    class Step(mf.nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model
            self.add_optimizer(opt)
            self.config.enable_fusion(fusion)
            self.config.set_gradient_accumulation_steps(micro_batches)

        def build(self, x, y):
            loss = mf.nn.functional.cross_entropy(self.model(x), y)
            loss.backward()
            mf.optim.clip_grad_norm_(self.model.parameters(), 0.5)
            return loss

    step = Step()
    rng = np.random.default_rng(6)
    losses = []
    for _ in range(3):
        x = mf.tensor(rng.standard_normal((12, 6)).astype(np.float32), device=device)
        y = mf.tensor(rng.integers(0, 3, 12), device=device)
        loss = step(x, y)
        assert loss.device.type == device
        losses.append(loss.numpy())
    assert all(p.device.type == device for p in model.parameters())
    return np.array(losses), [p.numpy() for p in model.parameters()], step


def _checkpoint_round_trip(device, path):
    """A model and its AdamW state trained a step on `device`, saved, loaded (on the CPU), and
    loaded back into a fresh model on `device`: returns (the loaded state, the original and
    the restored model after one more step each, their losses)."""
    def make():
        mf.manual_seed(5)
        return mf.nn.Sequential(mf.nn.Linear(6, 12), mf.nn.GELU(), mf.nn.Linear(12, 3)).to(device)

    rng = np.random.default_rng(7)
    x = mf.tensor(rng.standard_normal((8, 6)).astype(np.float32), device=device)
    y = mf.tensor(rng.integers(0, 3, 8), device=device)

    def step(model, opt):
        opt.zero_grad()
        loss = mf.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss.numpy()

    model = make()
    opt = mf.optim.AdamW(model.parameters(), lr=1e-2)
    step(model, opt)
    mf.save({"model": model.state_dict(), "opt": opt.state_dict()}, str(path))
    state = mf.load(str(path))
    restored = make()
    restored.load_state_dict(state["model"])
    restored_opt = mf.optim.AdamW(restored.parameters(), lr=1e-2)
    restored_opt.load_state_dict(state["opt"])
    losses = (step(model, opt), step(restored, restored_opt))
    for p in restored.parameters():
        assert p.device.type == device
    for moments in restored_opt.state_dict()["state"].values():
        assert moments["exp_avg"].device.type == device
    return state, model, restored, losses


def test_a_checkpoint_saved_from_the_test_device_loads_on_the_cpu_and_back(tmp_path):
    state, model, restored, losses = _checkpoint_round_trip("testdev", tmp_path / "ckpt")
    assert all(t.device.type == "cpu" for t in state["model"].values())
    assert losses[0].tobytes() == losses[1].tobytes()
    for a, b in zip(model.parameters(), restored.parameters()):
        assert a.numpy().tobytes() == b.numpy().tobytes()


@pytest.mark.parametrize("micro_batches", [1, 3])
@pytest.mark.parametrize("fusion", [True, False])
def test_graphs_on_the_test_device_train_as_on_the_cpu(micro_batches, fusion):
    """Graph mode on a device the host cannot touch: its arena, registers, fused chains
    and gradient accumulation live in the device's memory and go through
    its kernels and copies only. Unfused, bit for bit; fused, its chains (GELU, tanh and
    their gradients) are chain programs, which compute with elementwise_math.h's functors as
    a GPU does, where the CPU's float32 kernels of these ops use fast_math.h's forms, a few
    ulps apart."""
    loss_cpu, w_cpu, step_cpu = _graph_steps("cpu", micro_batches, fusion)
    loss_dev, w_dev, step_dev = _graph_steps("testdev", micro_batches, fusion)
    if fusion:
        np.testing.assert_allclose(loss_dev, loss_cpu, rtol=1e-5)
        for a, b in zip(w_cpu, w_dev):
            np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)
    else:
        assert loss_dev.tobytes() == loss_cpu.tobytes()
        for a, b in zip(w_cpu, w_dev):
            assert a.tobytes() == b.tobytes()
    assert step_dev.memory_plan() == step_cpu.memory_plan()
    assert (step_dev.compile_stats()["fused_chains"] >= 1) == fusion


@pytest.mark.parametrize("micro_batches", [1, 3])
@pytest.mark.parametrize("fusion", [True, False])
def test_a_graph_on_the_test_device_prints_the_cpus_plan(micro_batches, fusion):
    """Printing a compiled plan reads no device memory: on the test device, with its kernels
    still running (a latency per kernel, the run not waited for) and earlier plans collected
    meanwhile, it prints the CPU's plan on its placements (a compiled GPU graph's print
    crashed once: docs/gpu.md)."""
    import gc
    step_cpu = _graph_steps("cpu", micro_batches, fusion)[2]
    step_dev = _graph_steps("testdev", micro_batches, fusion)[2]
    _graph_steps("testdev", micro_batches, not fusion)  # a plan to collect while printing
    rng = np.random.default_rng(7)
    x, y = rng.standard_normal((12, 6)).astype(np.float32), rng.integers(0, 3, 12)
    step_cpu(mf.tensor(x), mf.tensor(y))
    mf._C.set_testdev_latency_us(5000)
    try:
        loss = step_dev(mf.tensor(x, device="testdev"), mf.tensor(y, device="testdev"))
        printed = repr(step_dev)
        gc.collect()
        assert repr(step_dev) == printed
        loss.numpy()
    finally:
        mf._C.set_testdev_latency_us(0)
    assert "traced nodes" in printed
    assert printed == repr(step_cpu).replace('type="cpu"', 'type="testdev"')


def test_a_graph_runs_on_one_device_type():
    class Add(mf.nn.Graph):
        def build(self, x, y):
            return x + y.to_global(placement=x.placement, sbp=mf.sbp.broadcast)

    x = mf.tensor([1.0, 2.0], placement=mf.placement("testdev", ranks=[0]), sbp=mf.sbp.broadcast)
    y = mf.tensor([1.0, 2.0], placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.broadcast)
    with pytest.raises(ValueError, match="a graph runs on one device type; this one has tensors on '(testdev|cpu)' "
                                         "and on '(cpu|testdev)'"):
        Add()(x, y)


def test_everyday_code_runs_on_the_test_device_as_on_the_cpu():
    """Gradients made with zeros_like (relu, abs, where, maximum), Python numbers and arrays
    beside a device tensor, dropout's mask, AdamW's moments and clipping all stay on the device."""
    def run(device):
        mf.manual_seed(3)
        rng = np.random.default_rng(4)
        x = mf.tensor(rng.standard_normal((4, 6)).astype(np.float32), device=device)
        w = mf.tensor(rng.standard_normal((6, 6)).astype(np.float32), device=device, requires_grad=True)
        opt = mf.optim.AdamW([w], lr=0.1)
        h = mf.matmul(x, w).relu() + mf.matmul(x, w).abs() * 0.5
        h = mf.maximum(h, 0.25) + (h > 1.0).float() + np.ones(6, np.float32)
        loss = mf.nn.functional.dropout(h, 0.5, training=True).mean()
        loss.backward()
        norm = mf.optim.clip_grad_norm_([w], 0.5)
        opt.step()
        return loss.numpy(), w.numpy(), norm

    loss_cpu, w_cpu, norm_cpu = run("cpu")
    loss_dev, w_dev, norm_dev = run("testdev")
    assert loss_dev.tobytes() == loss_cpu.tobytes() and w_dev.tobytes() == w_cpu.tobytes() and norm_dev == norm_cpu


def test_values_keep_their_device_and_refuse_another():
    w = mf.tensor([1.0, 2.0], device="testdev", requires_grad=True)
    with pytest.raises(ValueError, match="a gradient on cpu cannot go to a tensor on testdev:0"):
        w.grad = mf.tensor([1.0, 1.0])
    with pytest.raises(ValueError, match=r"backward\(\): the gradient on cpu cannot go to a tensor on testdev:0"):
        (w * 2.0).backward(mf.tensor([1.0, 1.0]))
    layer = mf.nn.Linear(2, 2)
    for p in layer.parameters():
        p.data = p.to("testdev").detach()
    layer.load_state_dict({k: v.cpu() for k, v in layer.state_dict().items()})
    assert all(p.device == "testdev:0" for p in layer.parameters())


def test_creation_takes_a_device():
    mf.manual_seed(5)
    on_cpu = mf.randn(3, 2)
    mf.manual_seed(5)
    on_dev = mf.randn(3, 2, device="testdev")
    assert on_dev.device == "testdev:0" and on_dev.numpy().tobytes() == on_cpu.numpy().tobytes()
    assert mf.zeros(2, device="testdev").device == "testdev:0"
    assert mf.arange(4, device="testdev").numpy().tolist() == [0, 1, 2, 3]
    assert mf.full((2,), 7, device="testdev").numpy().tolist() == [7, 7]
    with pytest.raises(ValueError, match="not both"):
        mf.ones(2, device="testdev", placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.broadcast)


def test_checkpoints_go_from_the_test_device_to_the_cpu_and_back(tmp_path):
    p_dev = mf.placement("testdev", ranks=[0])
    w = mf.tensor(np.arange(6, dtype=np.float32).reshape(2, 3), placement=p_dev, sbp=mf.sbp.split(0))
    b = mf.tensor(np.array([1, -1], dtype=np.int64), device="testdev")
    mf.save({"w": w, "b": b, "step": 3}, tmp_path / "ckpt")
    on_cpu = mf.load(tmp_path / "ckpt", placement=mf.placement("cpu", ranks=[0]))
    assert on_cpu["w"].placement.type == "cpu" and on_cpu["w"].numpy().tolist() == w.numpy().tolist()
    assert on_cpu["b"].numpy().tolist() == [1, -1] and on_cpu["step"] == 3
    mf.save(on_cpu, tmp_path / "back")
    again = mf.load(tmp_path / "back", placement=p_dev)
    assert again["w"].to_local().device == "testdev:0" and again["w"].numpy().tolist() == w.numpy().tolist()


def test_a_process_has_two_test_devices_each_with_its_own_memory():
    """testdev:0 and testdev:1 are separate devices, as two GPUs of a host: tensors move
    between them, ops and gradients stay where their inputs are, and mixing them is refused."""
    x = mf.tensor([1.0, -2.0, 3.0])
    a = x.to("testdev")
    b = a.to("testdev:1")
    assert a.device == mf.device("testdev", 0) and b.device == "testdev:1" and repr(b.device) == \
        "device(type='testdev', index=1)"
    assert b.to("testdev") is b and a.to("testdev:0") is a  # an index-less name: the device it is on
    assert b.to("testdev:0").device == "testdev:0" and b.numpy().tolist() == [1.0, -2.0, 3.0]
    w = mf.tensor([0.5, 1.0, 2.0], device="testdev:1", requires_grad=True)
    loss = (w * b).sum()
    loss.backward()
    assert loss.device == "testdev:1" and w.grad.device == "testdev:1" and w.grad.numpy().tolist() == [1.0, -2.0, 3.0]
    with pytest.raises(ValueError, match=r"\[mul\] expected every input on one device, got testdev:0 and testdev:1"):
        a * b
    with pytest.raises(ValueError, match="testdev:2 does not exist; this process has 2 test devices"):
        x.to("testdev:2")
    assert x.to("cpu:1") is x  # one CPU, whatever the index (as PyTorch)

    class Double(mf.nn.Graph):
        def build(self, t):
            return t * 2.0

    # A placement's ranks use index 0 of their device type; a local program's graph too.
    with pytest.raises(ValueError, match="a local program's tensors run on testdev:0; this one is on testdev:1"):
        Double()(b)
    assert Double()(a).numpy().tolist() == [2.0, -4.0, 6.0]


def test_a_zero_dim_host_tensor_joins_another_device_as_torch_s():
    """torch's rule: a 0-dim CPU tensor meets tensors on any device (moved there, its gradient
    back on the CPU); a CPU tensor with dimensions is still refused."""
    x = mf.tensor([1.0, -2.0, 3.0], device="testdev", requires_grad=True)
    s = mf.tensor(2.5, requires_grad=True)
    y = (x * s).sum()
    y.backward()
    assert y.device == "testdev:0" and float(y) == 5.0
    assert s.grad.device == "cpu" and float(s.grad) == 2.0
    assert x.grad.numpy().tolist() == [2.5, 2.5, 2.5]
    assert bool(mf.tensor(3.0, device="testdev") == mf.tensor(3.0))
    with pytest.raises(ValueError, match="expected every input on one device"):
        x + mf.tensor([1.0, 1.0, 1.0])
