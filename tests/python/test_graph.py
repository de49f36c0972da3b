"""Graph mode on one process: compiling, recompiling for new shapes, eager code and
checkpoints between calls, errors while tracing and on bad input."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from jobs import launch_script


def placement():
    return mf.placement("cpu", ranks=[0])


def model_and_opt(activation=nn.ReLU):
    mf.manual_seed(0)
    m = nn.Sequential(nn.Linear(4, 8), activation(), nn.Linear(8, 3))
    m.to_global(placement(), mf.sbp.broadcast)
    return m, mf.optim.SGD(m.parameters(), lr=0.1)


class Step(nn.Graph):
    def __init__(self, model, opt=None):
        super().__init__()
        self.model = model
        if opt is not None:
            self.add_optimizer(opt)

    def build(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss


def data(rows, seed=0):
    rng = np.random.default_rng(seed)
    x = mf.tensor(rng.standard_normal((rows, 4)).astype(np.float32), placement=placement(), sbp=mf.sbp.broadcast)
    y = mf.tensor(rng.integers(0, 3, rows).astype(np.int64), placement=placement(), sbp=mf.sbp.broadcast)
    return x, y


def test_repr_while_tracing_shows_the_layout_without_values():
    # A global tensor's repr reads its values, which do not exist yet while build traces.
    seen = []

    class Show(nn.Graph):
        def build(self, x):
            seen.append(repr(x))
            return x * 2

    x = mf.tensor(np.ones((2, 3), np.float32), placement=placement(), sbp=mf.sbp.split(0))
    np.testing.assert_array_equal(Show()(x).numpy(), np.full((2, 3), 2, np.float32))
    # Suffixes past the line width (80) go on lines of their own, as PyTorch's and OneFlow's.
    assert seen == ['tensor(shape=(2, 3), placement=placement(type="cpu", ranks=[0]), sbp=(S(0),),\n'
                    '       dtype=meshflow.float32)']


def test_recompiles_for_new_shapes_and_keeps_state_shared(tmp_path):
    model, opt = model_and_opt()
    step = Step(model, opt)
    before = model[0].weight.numpy().copy()
    step(*data(5))
    assert not np.array_equal(model[0].weight.numpy(), before)  # eager sees the update
    assert model[0].weight.grad is None
    first = step._last
    step(*data(7))                                                # new shape: compiles again
    assert step._last is not first
    step(*data(5, seed=1))                                        # cached plan
    assert step._last is first
    # Eager code between calls, and checkpoints around them.
    with mf.no_grad():
        model[0].weight.data = model[0].weight * 0.5
    mf.save({"model": model.state_dict()}, str(tmp_path / "ckpt"))
    expected = step(*data(5, seed=2)).numpy()
    state = mf.load(str(tmp_path / "ckpt"), placement=placement(), sbp=mf.sbp.broadcast)
    model.load_state_dict(state["model"])
    assert np.allclose(step(*data(5, seed=2)).numpy(), expected)
    assert "matmul" in repr(step)
    # One rank: nothing moves, and explain() says so.
    assert step.compile_stats()["boxing_nodes"] == 0 and "no boxing" in step.explain()


def test_compile_stats_times_each_pass_and_debug_graph_shows_the_graph_after_any():
    step = Step(*model_and_opt(nn.Hardswish))
    step(*data(5))
    passes = step.compile_stats()["passes"]
    assert [name for name, _ in passes] == ["cleanup", "sbp", "boxing", "recompute", "zero", "micro_batches",
                                            "constants", "fusion", "stages", "fold", "tasks", "prefetch", "memory",
                                            "actors"]
    assert all(ms >= 0 for _, ms in passes)
    # hardswish, x * clamp(x + 3, 0, 6) / 6, and its gradient fuse: chains after the fusion
    # pass, none before.
    assert "fused(" not in step.debug_graph(after="constants")
    assert "fused(add_scalar, clamp, div_scalar, mul)" in step.debug_graph(after="fusion")
    assert "fused(mul, div_scalar, clamp_backward, add)" in step.debug_graph(after="fusion")
    assert "tasks and" in step.debug_graph(after="tasks") and "tasks and" not in step.debug_graph(after="fold")
    # The whole pipeline, run anew, gives the graph the step was compiled to.
    assert step.debug_graph().split("\n", 1)[1] == repr(step).split("\n", 2)[2]
    with pytest.raises(ValueError, match="no pass is named 'fuse'; the passes are cleanup, sbp"):
        step.debug_graph(after="fuse")


def test_evaluation_graph_without_backward(tmp_path):
    model, _ = model_and_opt()

    class Eval(nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model

        def build(self, x):
            return self.model(x).softmax(dim=1)

    x, _ = data(3)
    expected = model(x).softmax(dim=1).numpy()
    g = Eval()
    np.testing.assert_allclose(g(x).numpy(), expected, rtol=1e-6)
    g.to_dot(str(tmp_path / "g.dot"))
    assert (tmp_path / "g.dot").read_text().startswith("digraph")


def test_error_while_tracing_names_the_line_of_build():
    model, _ = model_and_opt()

    class Bad(nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model

        def build(self, x):
            h = self.model(x)
            return x.matmul(h)  # [3, 4] @ [3, 3]

    x, _ = data(3)
    with pytest.raises(ValueError, match=r"\[matmul\].*test_graph.py:\d+: return x.matmul\(h\)"):
        Bad()(x)
    # The trace left nothing behind: the model still works eagerly.
    assert model(x).numpy().shape == (3, 3)


@pytest.mark.parametrize("micro_batches", [1, 2, 3])
def test_random_draws_per_micro_batch_alike_in_every_call(micro_batches):
    """Each micro-batch draws its own dropout mask, and a call draws the same counters
    whether it is a graph's first (the one that compiles) or a later one: a graph made
    after set_rng_state(s) gives what an older graph gives after it (resuming a run)."""
    p = placement()

    class Dropped(nn.Graph):
        def __init__(self):
            super().__init__()
            self.config.set_gradient_accumulation_steps(micro_batches)

        def build(self, x):
            return (F.dropout(x, 0.5) * x).sum()

    x = mf.tensor(np.arange(1.0, 37.0, dtype=np.float32).reshape(6, 6), placement=p, sbp=mf.sbp.broadcast)
    older = Dropped()
    offsets = [mf._C.generator_state()[1]]
    for _ in range(3):
        older(x).numpy()
        offsets.append(mf._C.generator_state()[1])
    assert np.diff(offsets).tolist() == [36] * 3  # the whole batch's elements each call, the first too
    state = mf.get_rng_state()
    expected = older(x).numpy()
    mf.set_rng_state(state)
    np.testing.assert_array_equal(Dropped()(x).numpy(), expected)
    # Eagerly, micro-batch k's mask is drawn after those of micro-batches 0 .. k-1; the call
    # returns the micro-batches' mean.
    mf.set_rng_state(state)
    rows = 6 // micro_batches
    eager = [(F.dropout(x[k * rows:(k + 1) * rows], 0.5) * x[k * rows:(k + 1) * rows]).sum().numpy()
             for k in range(micro_batches)]
    np.testing.assert_allclose(expected, np.mean(eager), rtol=1e-6)


def test_a_local_input_beside_global_ones_is_taken_as_broadcast_on_their_placement():
    # As an eager op takes it (implicit replication): labels every rank made alike.
    model, _ = model_and_opt()

    class Loss(nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model

        def build(self, x, y):
            return nn.functional.cross_entropy(self.model(x), y)

    x, y = data(4)
    loss = Loss()
    local_y = mf.tensor(y.numpy())
    np.testing.assert_allclose(loss(x, local_y).numpy(), loss(x, y).numpy(), rtol=1e-6)
    np.testing.assert_allclose(loss(x, local_y).numpy(),
                               nn.functional.cross_entropy(model(x), y).numpy(), rtol=1e-6)


def test_bad_input_is_refused():
    model, opt = model_and_opt()
    step = Step(model, opt)
    x, y = data(4)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        step(x, np.zeros(4))
    with pytest.raises(RuntimeError, match="lazy"):
        class Reads(Step):
            def build(self, x, y):
                return self.model(x).sum() + float(self.model(x).sum().item())
        Reads(model)(x, y)


def test_random_ops_draw_anew_at_every_run_as_eager():
    """Dropout and rand inside build give new values at each call, the ones the eager step
    draws at the same point of the program (the generator advances alike in both)."""
    p = placement()

    def f(x):
        return F.dropout(x, 0.5) + mf.rand(5, 6, placement=p, sbp=mf.sbp.broadcast)

    class Noisy(nn.Graph):
        def build(self, x):
            return f(x)

    x = mf.tensor(np.ones((5, 6), np.float32), placement=p, sbp=mf.sbp.broadcast)
    mf.manual_seed(11)
    expected = [f(x).numpy() for _ in range(3)]
    mf.manual_seed(11)
    graph = Noisy()
    got = [graph(x).numpy() for _ in range(3)]
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(g, e)
    assert not np.array_equal(got[0], got[1])
    # Eager code after the calls continues the same sequence.
    after_graph = mf.rand(3, placement=p, sbp=mf.sbp.broadcast).numpy()
    mf.manual_seed(11)
    for _ in range(3):
        f(x)
    np.testing.assert_array_equal(after_graph, mf.rand(3, placement=p, sbp=mf.sbp.broadcast).numpy())


@pytest.mark.parametrize("optimizer", [lambda p: mf.optim.SGD(p, lr=0.1, momentum=0.9),
                                       lambda p: mf.optim.AdamW(p, lr=0.05)])
def test_local_program_runs_as_eager(optimizer):
    """A program that placed nothing: local inputs, parameters and optimizer state (eager
    steps made before the graph's included) run as global tensors of this rank alone; the
    outputs and parameters stay local, bitwise equal to eager, over more batch shapes than
    the graph keeps compiled."""
    def local_model():
        mf.manual_seed(0)
        return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    eager, graphed = local_model(), local_model()
    eager_opt, graph_opt = optimizer(eager.parameters()), optimizer(graphed.parameters())
    step = Step(graphed, graph_opt)
    step.config.set_max_compiled(2)
    rng = np.random.default_rng(0)
    for i in range(7):
        rows = 3 + i % 4
        x = mf.tensor(rng.standard_normal((rows, 4)).astype(np.float32))
        y = mf.tensor(rng.integers(0, 3, rows))
        loss = F.cross_entropy(eager(x), y)
        loss.backward()
        eager_opt.step()
        eager_opt.zero_grad()
        if i == 0:  # an eager step first: the graph takes over local optimizer state
            graph_loss = F.cross_entropy(graphed(x), y)
            graph_loss.backward()
            graph_opt.step()
            graph_opt.zero_grad()
        else:
            graph_loss = step(x, y)
        assert not graph_loss.is_global and graph_loss.item() == loss.item()
        assert len(step._compiled) <= 2
    for (name, a), (_, b) in zip(eager.named_parameters(), graphed.named_parameters()):
        assert not b.is_global
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)


@pytest.mark.parametrize("device", ["cpu", "testdev"])
def test_local_program_makes_its_own_constants(device):
    """Tensors a local program's build makes (positions from mf.arange, a mask from
    mf.ones, a tensor of a number) are constants of the graph beside its inputs, computed
    once while tracing, as eager computes them. The mask's input node comes after the
    multiply that the fused chain starts with, which the chain still reads."""
    def f(x):
        positions = mf.arange(x.shape[1], device=device).float()
        mask = mf.ones(x.shape[1], device=device) * 0.5
        return (x * positions + mask).sum(dim=1) + mf.tensor(2.0, device=device)

    class Eval(nn.Graph):
        def build(self, x):
            return f(x)

    x = mf.tensor(np.arange(12, dtype=np.float32).reshape(3, 4), device=device)
    graph = Eval()
    got = graph(x)
    assert not got.is_global and got.device.type == device
    assert got.numpy().tobytes() == f(x).numpy().tobytes()
    assert graph.compile_stats()["fused_chains"] >= 1


@pytest.mark.parametrize("device", ["cpu", "testdev"])
def test_kernels_write_their_results_into_the_memory_plan(device):
    """Each task hands its kernel its register's slot in the arena, and the kernel writes its
    result there (on the test device too, through the host view of its memory): a run takes
    no memory of a result's size beyond what it returns (a result made elsewhere and copied
    in would)."""
    n = 256  # every intermediate result is n * n * 4 bytes, or twice that
    rng = np.random.default_rng(0)
    p = mf.placement(device, ranks=[0])
    a = mf.tensor(rng.standard_normal((n, n)).astype(np.float32), placement=p, sbp=mf.sbp.broadcast)
    w = mf.tensor(rng.standard_normal((n, n)).astype(np.float32), placement=p, sbp=mf.sbp.broadcast)

    class Eval(nn.Graph):
        def build(self, a, w):
            h = F.softmax(mf.matmul(a, w), dim=-1) * 2.0 + a
            h = F.layer_norm(h, (n,))
            h = F.gelu(mf.cat([h.T, h], dim=0)).relu()
            return h.sum(dim=1)

    graph = Eval()
    graph.config.enable_fusion(False)
    expected = graph(a, w).numpy()
    mf.synchronize()
    mf.reset_peak_memory_stats()
    before = mf.memory_stats()["cpu"]["in_use_bytes"]
    got = graph(a, w)
    mf.synchronize()
    grown = mf.memory_stats()["cpu"]["peak_bytes"] - before
    assert got.numpy().tobytes() == expected.tobytes()
    assert grown < n * n * 4 // 2, f"a run took {grown} bytes more"


@pytest.mark.parametrize("device", ["cpu", "testdev"])
def test_a_graph_may_issue_a_program_s_first_collective(tmp_path, device):
    """Nothing before the graph communicates (global tensors made from full values move
    nothing), so the all-gather inside it is the program's first collective: it runs on the
    comm thread like every collective (a run whose collective waited for that thread from
    another stream, behind itself, hung)."""
    code, out = launch_script(tmp_path, f"""
        import numpy as np
        import meshflow as mf
        p = mf.placement("{device}", ranks=[0, 1])
        w = mf.tensor(np.ones((4, 4), np.float32), placement=p, sbp=mf.sbp.split(1))
        x = mf.tensor(np.ones((2, 4), np.float32), placement=p, sbp=mf.sbp.broadcast)

        class Eval(mf.nn.Graph):
            def build(self, x):
                return (x @ w).to_global(sbp=mf.sbp.broadcast).sum(dim=1)

        got = Eval()(x).numpy().tolist()
        with open(f"rank{{mf.env.get_rank()}}.txt", "w") as f:  # ranks' prints may interleave
            f.write(str(got))
    """, timeout=60)
    assert code == 0, out
    for rank in (0, 1):
        assert (tmp_path / f"rank{rank}.txt").read_text() == "[16.0, 16.0]", out


def test_a_pipeline_stage_s_forward_collectives_run_ahead_of_its_backward_ones(tmp_path):
    """1x2x2: two stages of a [2] mesh, each a column- then a row-parallel layer. The stage's
    collectives (all-reduces; transfers between stages run on lanes apart) act as one forward
    one backward does: stage 0, which holds two micro-batches, issues micro-batch k + 1's
    forward collectives before micro-batch k's backward ones (one order for the whole step,
    piece by piece, kept it one micro-batch at a time), both its ranks in one order; stage 1
    takes each micro-batch through forward and backward in turn. Read from the actors' trace
    (the order, not the timing), and the step equals eager's."""
    code, out = launch_script(tmp_path, """
        import numpy as np
        import meshflow as mf
        import meshflow.nn as nn
        import meshflow.nn.functional as F
        rank = mf.env.get_rank()
        stages = [mf.placement("cpu", ranks=[0, 1]), mf.placement("cpu", ranks=[2, 3])]

        def model():
            mf.manual_seed(0)
            layers = []
            for p in stages:
                col, row = nn.Linear(16, 16), nn.Linear(16, 16)
                col.to_global(p, mf.sbp.split(0))
                row.to_global(p, lambda name, _: mf.sbp.split(1) if name == "weight" else mf.sbp.broadcast)
                layers.append((p, col, row))
            def forward(x):
                for p, col, row in layers:
                    x = row(F.gelu(col(x.to_global(placement=p, sbp=mf.sbp.broadcast))))
                return x
            return forward, [q for _, col, row in layers for q in (*col.parameters(), *row.parameters())]

        class Step(nn.Graph):
            def __init__(self):
                super().__init__()
                self.forward_fn, params = model()
                self.add_optimizer(mf.optim.SGD(params, lr=0.1))
                self.config.set_gradient_accumulation_steps(4)

            def build(self, x, y):
                loss = F.cross_entropy(self.forward_fn(x), y)
                loss.backward()
                return loss

        rng = np.random.default_rng(0)
        x = mf.tensor(rng.standard_normal((8, 16)).astype(np.float32), placement=stages[0], sbp=mf.sbp.broadcast)
        y = mf.tensor(rng.integers(0, 16, 8).astype(np.int64), placement=stages[1], sbp=mf.sbp.broadcast)
        forward, params = model()
        expected = F.cross_entropy(forward(x), y).numpy()
        got = Step()(x, y).numpy()
        acts = sorted((start, name) for name, stream, start, _ in mf._C.trace_spans()
                      if stream == "comm" and name.startswith("to_global #"))
        with open(f"rank{rank}.txt", "w") as f:  # ranks' prints may interleave
            f.write(repr((abs(float(got) - float(expected)), [int(name.split("#")[1]) for _, name in acts])))
    """, nproc=4, timeout=240, MESHFLOW_TRACE=str(tmp_path / "trace"))
    assert code == 0, out
    runs = [eval((tmp_path / f"rank{rank}.txt").read_text()) for rank in range(4)]
    for error, _ in runs:
        assert error < 1e-5, runs
    for stage in (0, 1):
        assert runs[2 * stage][1] == runs[2 * stage + 1][1], runs  # one order on the stage's communicator
    first, last = runs[0][1], runs[2][1]
    assert last == sorted(last) and len(set(last)) == 4, last
    # Stage 0: micro-batch 1's first collective (forward) before micro-batch 0's last (backward).
    assert first.index(1) < len(first) - 1 - first[::-1].index(0), first


def test_zero_stage_3_gathers_a_layer_ahead_and_no_further(tmp_path):
    """ZeRO stage 3 in a graph (graph/zero.h): six equal layers, each weight gathered for its
    use. Forward's gather k waits for the matmul that used gather k - 2, not the one before
    it (the prefetch pass's waits): it is issued while layer k - 1 computes, a layer ahead,
    and at most two layers are gathered at once, so the memory plan reuses their memory. The
    actors' trace shows the bound kept, and the step equals eager's."""
    code, out = launch_script(tmp_path, """
        import re
        import meshflow as mf
        import meshflow.nn as nn
        p = mf.placement("cpu", ranks=[0, 1])

        def model():
            mf.manual_seed(0)
            layers = nn.Sequential(*[nn.Linear(256, 256, bias=False) for _ in range(6)])
            layers.to_global(p, mf.sbp.broadcast)
            return layers, mf.optim.SGD(layers.parameters(), lr=0.1, zero_stage=3)

        class Step(mf.nn.Graph):
            def __init__(self):
                super().__init__()
                self.layers, opt = model()
                self.add_optimizer(opt)

            def build(self, x):
                loss = self.layers(x).square().mean()
                loss.backward()
                return loss

        x = mf.randn(512, 256, placement=p, sbp=mf.sbp.split(0))
        layers, opt = model()
        expected = layers(x).square().mean().item()
        step = Step()
        got = step(x).item()
        text = step.debug_graph(after="prefetch")
        gathers = re.findall(r"(%\\d+) = to_global.*ZeRO gather", text)[:6]  # forward's, in order
        users = [re.search(r"(%\\d+) = matmul\\(%\\d+, " + g + r"\\)", text).group(1) for g in gathers]
        waits = {m.group(1): m.group(2).split() for m in re.finditer(r"(%\\d+) waits for (.*)", text)}
        spans = sorted((start, end, name) for name, stream, start, end in mf._C.trace_spans()
                       if name in ("matmul", "to_global (ZeRO gather)"))
        with open(f"rank{mf.env.get_rank()}.txt", "w") as f:  # ranks' prints may interleave
            f.write(repr((got - expected, [waits.get(g, []) for g in gathers], users, spans)))
    """, timeout=120, MESHFLOW_TRACE=str(tmp_path / "trace"))
    assert code == 0, out
    for rank in (0, 1):
        error, waits, users, spans = eval((tmp_path / f"rank{rank}.txt").read_text())
        assert abs(error) < 1e-5, error
        assert waits[:2] == [[], []], waits
        for k in range(2, 6):
            assert users[k - 2] in waits[k] and users[k - 1] not in waits[k], (k, waits, users)
        gathers = [(s, e) for s, e, name in spans if name != "matmul"][:6]
        # The graph's matmuls (eager's reference ran before it).
        matmuls = [(s, e) for s, e, name in spans if name == "matmul" and s >= gathers[0][0]][:6]
        for k in range(2, 6):
            assert gathers[k][0] >= matmuls[k - 2][1], (k, gathers, matmuls)


def test_outputs_accumulated_over_micro_batches_keep_each_call_value():
    # The loss of a step with gradient accumulation is summed in an accumulator the next call
    # writes again: each call returns its own copy (every kept loss read the last step's).
    mf.manual_seed(5)
    model = mf.nn.Sequential(mf.nn.Linear(6, 12), mf.nn.Tanh(), mf.nn.Linear(12, 3))
    opt = mf.optim.SGD(model.parameters(), lr=0.1)

    class Step(mf.nn.Graph):
        def __init__(self):
            super().__init__()
            self.model = model
            self.add_optimizer(opt)
            self.config.set_gradient_accumulation_steps(3)

        def build(self, x, y):
            loss = mf.nn.functional.cross_entropy(self.model(x), y)
            loss.backward()
            return loss

    step, rng = Step(), np.random.default_rng(6)
    kept, read = [], []
    for _ in range(3):
        loss = step(mf.tensor(rng.standard_normal((12, 6)).astype(np.float32)), mf.tensor(rng.integers(0, 3, 12)))
        kept.append(loss)
        read.append(loss.item())
    assert [t.item() for t in kept] == read and len(set(read)) == 3
