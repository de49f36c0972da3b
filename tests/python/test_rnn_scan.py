"""nn.RNN, nn.LSTM and nn.GRU through the fused op rnn_scan (meshflow/ops/rnn.cc) equal the
composition they replaced (each step's cell from linear, sigmoid and tanh: nn.rnn._cell, which
test_nn_extra checks against NumPy) in values and in every gradient, for float32 and float64,
both directions, several layers, batch_first (which the op reads and writes as it is), packed
sequences, initial states and LSTM's proj_size (projected inside the op); the test device
equals the CPU; bfloat16 runs; bad calls of the op raise naming it."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.utils.rnn as rnn_utils
from meshflow._tensor import apply
from meshflow.nn.rnn import _cell
from gradcheck import check_gradients

RNG = np.random.default_rng(38)
CLASSES = {"LSTM": nn.LSTM, "GRU": nn.GRU, "RNN_TANH": nn.RNN, "RNN_RELU": nn.RNN}


def _make(mode, *args, proj=0, **kwargs):
    if mode == "RNN_RELU":
        kwargs["nonlinearity"] = "relu"
    if proj:
        kwargs["proj_size"] = proj
    return CLASSES[mode](*args, **kwargs)


def _composed(m, x, h0, c0, batch_sizes=None):
    """The composition the op replaced: x [T, B, in] time first (or packed rows with
    batch_sizes); returns output, h_n, c_n."""
    lstm = m.mode == "LSTM"
    directions = 2 if m.bidirectional else 1
    steps = len(batch_sizes) if batch_sizes else x.shape[0]
    sizes = batch_sizes or [x.shape[1]] * steps
    offsets = [sum(sizes[:t]) for t in range(steps)]
    h_n, c_n, layer_input = [], [], x
    for layer in range(m.num_layers):
        outs = []
        for direction in range(directions):
            w_ih, w_hh, b_ih, b_hh, w_hr = m._weights(layer, direction)
            index = layer * directions + direction
            h, c = h0[index], (c0[index] if lstm else None)
            proj = nn.functional.linear(layer_input, w_ih, b_ih)
            seq = [None] * steps
            for t in (range(steps - 1, -1, -1) if direction else range(steps)):
                size = sizes[t]
                xp = proj[offsets[t]:offsets[t] + size] if batch_sizes else proj[t]
                h_run, c_run = _cell(m.mode, xp, h[:size], c[:size] if lstm else None, w_hh, b_hh, w_hr)
                h = mf.cat([h_run, h[size:]], 0) if size < h.shape[0] else h_run
                c = (mf.cat([c_run, c[size:]], 0) if size < c.shape[0] else c_run) if lstm else None
                seq[t] = h_run
            outs.append(mf.cat(seq, 0) if batch_sizes else mf.stack(seq, 0))
            h_n.append(h)
            c_n.append(c)
        layer_input = outs[0] if directions == 1 else mf.cat(outs, -1)
    return layer_input, mf.stack(h_n, 0), (mf.stack(c_n, 0) if lstm else None)


def _grads(m, inputs, outputs, weights):
    loss = sum((o * mf.tensor(w).to(o.dtype)).sum() for o, w in zip(outputs, weights) if o is not None)
    params = list(m.parameters())
    for t in inputs + params:
        t.grad = None
    loss.backward()
    return [t.grad.numpy().copy() for t in inputs + params]


CASES = [("LSTM", 1, False, False, True, 0), ("LSTM", 2, True, True, True, 0), ("GRU", 2, True, False, True, 0),
         ("GRU", 1, False, True, False, 0), ("RNN_TANH", 2, True, False, True, 0),
         ("RNN_RELU", 1, False, False, False, 0), ("LSTM", 2, True, True, True, 3), ("LSTM", 1, False, False, False, 2)]


@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-10), (np.float32, 2e-5)])
@pytest.mark.parametrize("mode, layers, bidirectional, batch_first, bias, proj", CASES)
def test_fused_equals_the_composition(mode, layers, bidirectional, batch_first, bias, proj, dtype, tol):
    m = _make(mode, 3, 5, num_layers=layers, bidirectional=bidirectional, batch_first=batch_first, bias=bias,
              proj=proj)
    if dtype == np.float64:
        m = m.double()
    directions = 2 if bidirectional else 1
    x = RNG.standard_normal((6, 4, 3)).astype(dtype)
    h0 = RNG.standard_normal((layers * directions, 4, proj or 5)).astype(dtype)
    c0 = RNG.standard_normal((layers * directions, 4, 5)).astype(dtype)
    tx, th, tc = (mf.tensor(a).requires_grad_() for a in (x, h0, c0))
    hx = (th, tc) if mode == "LSTM" else th
    out, state = m(tx.transpose(0, 1) if batch_first else tx, hx)
    if batch_first:
        out = out.transpose(0, 1)
    got_h, got_c = state if mode == "LSTM" else (state, None)
    ref_out, ref_h, ref_c = _composed(m, tx, th, tc)
    for got, ref in ((out, ref_out), (got_h, ref_h), (got_c, ref_c)):
        if ref is not None:
            np.testing.assert_allclose(got.numpy(), ref.numpy(), rtol=tol, atol=tol)
    weights = [RNG.standard_normal(t.shape) for t in (ref_out, ref_h, ref_h if ref_c is None else ref_c)]
    inputs = [tx, th] + ([tc] if mode == "LSTM" else [])
    got = _grads(m, inputs, [out, got_h, got_c], weights)
    ref = _grads(m, inputs, list(_composed(m, tx, th, tc)), weights)
    for g, r in zip(got, ref):
        np.testing.assert_allclose(g, r, rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize("mode, proj", [("LSTM", 0), ("GRU", 0), ("RNN_TANH", 0), ("LSTM", 3)])
@pytest.mark.parametrize("sorted_lengths", [True, False])
def test_packed_equals_the_composition(mode, proj, sorted_lengths):
    m = _make(mode, 3, 4, num_layers=2, bidirectional=True, proj=proj).double()
    lengths = [5, 3, 3, 1] if sorted_lengths else [3, 5, 1, 3]
    x = mf.tensor(RNG.standard_normal((5, 4, 3))).requires_grad_()
    h0 = mf.tensor(RNG.standard_normal((4, 4, proj or 4))).requires_grad_()
    c0 = mf.tensor(RNG.standard_normal((4, 4, 4))).requires_grad_()
    packed = rnn_utils.pack_padded_sequence(x, lengths, enforce_sorted=sorted_lengths)
    out, state = m(packed, (h0, c0) if mode == "LSTM" else h0)
    got_h = state[0] if mode == "LSTM" else state
    # The composition on the sorted batch, the states permuted as the module does.
    order = packed.sorted_indices
    sort = (lambda t: t) if order is None else (lambda t: t.index_select(1, order))
    unsort = (lambda t: t) if order is None else (lambda t: t.index_select(1, packed.unsorted_indices))
    def composed():  # on a packing of its own: each backward frees its graph
        data = rnn_utils.pack_padded_sequence(x, lengths, enforce_sorted=sorted_lengths).data
        return _composed(m, data, sort(h0), sort(c0), packed.batch_sizes.tolist())
    ref_out, ref_h, ref_c = composed()
    np.testing.assert_allclose(out.data.numpy(), ref_out.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got_h.numpy(), unsort(ref_h).numpy(), rtol=1e-10, atol=1e-12)
    if mode == "LSTM":
        np.testing.assert_allclose(state[1].numpy(), unsort(ref_c).numpy(), rtol=1e-10, atol=1e-12)
    weights = [RNG.standard_normal(t.shape) for t in (ref_out, ref_h)]
    inputs = [x, h0] + ([c0] if mode == "LSTM" else [])
    got = _grads(m, inputs, [out.data, got_h], weights)
    ref_out, ref_h, _ = composed()
    ref = _grads(m, inputs, [ref_out, unsort(ref_h)], weights)
    for g, r in zip(got, ref):
        np.testing.assert_allclose(g, r, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("threads", [1, 2, 3, 4])
@pytest.mark.parametrize("mode, proj", [("LSTM", 0), ("GRU", 0), ("LSTM", 2)])
def test_batch_shared_by_threads_equals_the_composition(mode, proj, threads):
    """float32 runs the two directions and splits the batch between the team's threads for
    the whole scan (4 threads: 2 shares a direction): an odd batch, a packed sequence whose
    shorter rows leave a thread's share empty first, every gradient."""
    previous = mf.get_num_threads()
    mf.set_num_threads(threads)
    try:
        m = _make(mode, 3, 4, num_layers=2, bidirectional=True, proj=proj)
        lengths = [4, 6, 1, 6, 3]
        x = mf.tensor(RNG.standard_normal((6, 5, 3)).astype(np.float32)).requires_grad_()
        h0 = mf.tensor(RNG.standard_normal((4, 5, proj or 4)).astype(np.float32)).requires_grad_()
        c0 = mf.tensor(RNG.standard_normal((4, 5, 4)).astype(np.float32)).requires_grad_()
        inputs = [x, h0] + ([c0] if mode == "LSTM" else [])
        for packed in (False, True):
            seq = rnn_utils.pack_padded_sequence(x, lengths, enforce_sorted=False) if packed else x
            out, state = m(seq, (h0, c0) if mode == "LSTM" else h0)
            got_h = state[0] if mode == "LSTM" else state
            order = seq.sorted_indices if packed else None
            sort = (lambda t: t) if order is None else (lambda t: t.index_select(1, order))
            unsort = (lambda t: t) if order is None else (lambda t: t.index_select(1, seq.unsorted_indices))

            def composed():  # on a packing of its own: each backward frees its graph
                if not packed:
                    return _composed(m, x, h0, c0)
                data = rnn_utils.pack_padded_sequence(x, lengths, enforce_sorted=False)
                return _composed(m, data.data, sort(h0), sort(c0), data.batch_sizes.tolist())
            ref_out, ref_h, _ = composed()
            got_out = out.data if packed else out
            np.testing.assert_allclose(got_out.numpy(), ref_out.numpy(), rtol=2e-5, atol=2e-5)
            np.testing.assert_allclose(got_h.numpy(), unsort(ref_h).numpy(), rtol=2e-5, atol=2e-5)
            weights = [RNG.standard_normal(t.shape) for t in (ref_out, ref_h)]
            got = _grads(m, inputs, [got_out, got_h], weights)
            ref_out, ref_h, _ = composed()
            ref = _grads(m, inputs, [ref_out, unsort(ref_h)], weights)
            for g, r in zip(got, ref):
                np.testing.assert_allclose(g, r, rtol=2e-4, atol=2e-4)
    finally:
        mf.set_num_threads(previous)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mode", [2, 3, 0])  # rnn.h's Mode: LSTM, GRU, RNN tanh
def test_op_takes_batch_first_sequences_as_time_major_ones(mode, dtype, threads):
    """rnn_scan with batch_first reads x [B, T, G H] and writes y and the workspace [B, T, ...]
    in place of the transposed copies nn.LSTM(batch_first=True) made: values and every
    gradient equal the time-major op's, both directions, an odd batch split between threads."""
    previous = mf.get_num_threads()
    mf.set_num_threads(threads)
    try:
        batch, steps, hidden = 5, 4, 3
        gh = {2: 4, 3: 3, 0: 1}[mode] * hidden
        arrays = [RNG.standard_normal(shape).astype(dtype) for shape in
                  ((batch, steps, gh), (batch, hidden), (batch, hidden), (gh, hidden), (gh,))]
        if mode != 2:
            del arrays[2]  # c0: LSTM's alone
        for reverse in (False, True):
            attrs = {"mode": mode, "reverse": reverse, "has_bias": True}
            results = []
            for batch_first in (True, False):
                tensors = [mf.tensor(a).requires_grad_() for a in arrays]
                x = tensors[0] if batch_first else tensors[0].transpose(0, 1).contiguous()
                outs = apply("rnn_scan", [x] + tensors[1:], dict(attrs, batch_first=batch_first))
                y = outs[0] if batch_first else outs[0].transpose(0, 1)
                ws = outs[-1] if batch_first else outs[-1].transpose(0, 1)
                loss = (y * mf.tensor(np.linspace(-1, 1, y.numel()).reshape(y.shape).astype(dtype))).sum()
                (loss + (outs[1] * 3).sum() + outs[-1].sum() * 0.5).backward()
                results.append([o.numpy() for o in [y, ws] + outs[1:-1]] + [t.grad.numpy() for t in tensors])
            for got, ref in zip(*results):
                np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)
    finally:
        mf.set_num_threads(previous)


CELLS = {"LSTM": nn.LSTMCell, "GRU": nn.GRUCell, "RNN_TANH": nn.RNNCell, "RNN_RELU": nn.RNNCell}


@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-12), (np.float32, 2e-6)])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("mode", ["LSTM", "GRU", "RNN_TANH", "RNN_RELU"])
def test_cell_call_is_one_op_equal_to_the_composition(mode, bias, dtype, tol):
    """A cell's call is its input's product and one rnn_scan over one step (its gradient one
    op, where the composition took about fifteen), with the composition's values and
    gradients, batched and not, with and without a state."""
    kwargs = {"nonlinearity": "relu"} if mode == "RNN_RELU" else {}
    m = CELLS[mode](3, 4, bias=bias, **kwargs)
    m = m.double() if dtype == np.float64 else m
    lstm = mode == "LSTM"
    for batch in ((5,), ()):
        x = mf.tensor(RNG.standard_normal(batch + (3,)).astype(dtype)).requires_grad_()
        h0, c0 = (mf.tensor(RNG.standard_normal(batch + (4,)).astype(dtype)).requires_grad_() for _ in range(2))
        for hx in (None, (h0, c0) if lstm else h0):
            got = m(x, hx)
            got = got if lstm else (got, None)
            node = got[0].grad_fn if batch else got[0].grad_fn.next_functions[0][0]  # unbatched: a squeeze
            assert type(node).__name__ == "RnnScanBackward0"
            state = (h0, c0 if lstm else None) if hx is not None else (mf.zeros_like(h0), mf.zeros_like(c0))
            ref = _cell(mode, nn.functional.linear(x, m.weight_ih, m.bias_ih), *state, m.weight_hh, m.bias_hh)
            weights = [RNG.standard_normal(batch + (4,)) for _ in range(2)]
            inputs = [x] + ([h0] + ([c0] if lstm else []) if hx is not None else [])
            grads = [_grads(m, inputs, list(outs), weights) for outs in (got, ref)]
            for g, r, o, e in zip(grads[0], grads[1], got, ref):
                np.testing.assert_allclose(g, r, rtol=tol * 10, atol=tol * 10)
                if e is not None:
                    np.testing.assert_allclose(o.detach().numpy(), e.detach().numpy(), rtol=tol, atol=tol)


def test_cell_keeps_a_float32_state_under_autocast():
    """torch's cells compose ops whose results promote: under autocast(bfloat16) a float32
    state comes out float32 (the layers' recurrence runs in the projection's dtype)."""
    x = mf.tensor(RNG.standard_normal((2, 3)).astype(np.float32))
    with mf.autocast("cpu", dtype=mf.bfloat16):
        h, c = nn.LSTMCell(3, 4)(x)
        g = nn.GRUCell(3, 4)(x)
    assert h.dtype == c.dtype == g.dtype == mf.float32


@pytest.mark.parametrize("mode", ["LSTM", "GRU", "RNN_RELU"])
def test_gradients_by_finite_differences(mode):
    m = _make(mode, 2, 3, bidirectional=True).double()
    lstm = mode == "LSTM"

    def run(x, h, *c):
        out, state = m(x, (h, c[0]) if lstm else h)
        return mf.cat([out.reshape(-1), (state[1] if lstm else state).reshape(-1)])
    arrays = [RNG.standard_normal((4, 2, 2)), RNG.standard_normal((2, 2, 3))]
    check_gradients(run, arrays + ([RNG.standard_normal((2, 2, 3))] if lstm else []))


@pytest.mark.parametrize("proj", [0, 3])
def test_test_device_equals_the_cpu(proj):
    m = _make("LSTM", 3, 4, num_layers=2, bidirectional=True, proj=proj)
    x, h0 = RNG.standard_normal((5, 2, 3)).astype(np.float32), RNG.standard_normal((4, 2, 4)).astype(np.float32)
    results = []
    for device in ("cpu", "testdev"):
        m.to(device)
        tx = mf.tensor(x, device=device).requires_grad_()
        th = mf.tensor(h0, device=device)
        out, (h, c) = m(tx, (th[..., :proj] if proj else th, th))
        (out.sum() + h.sum() * 2 + c.sum()).backward()
        results.append([out.numpy(), h.numpy(), c.numpy(), tx.grad.numpy()] +
                       [p.grad.numpy().copy() for p in m.parameters()])
        m.zero_grad()
    for cpu, dev in zip(*results):
        np.testing.assert_array_equal(dev, cpu)


def test_bfloat16_runs_in_float32_and_rounds():
    m = nn.GRU(3, 4)
    x = mf.tensor(RNG.standard_normal((5, 2, 3)).astype(np.float32))
    ref, _ = m(x.to(mf.bfloat16).to(mf.float32))
    out, h = m.to(mf.bfloat16)(x.to(mf.bfloat16))
    assert out.dtype == mf.bfloat16 and h.dtype == mf.bfloat16
    np.testing.assert_allclose(out.to(mf.float32).numpy(), ref.numpy(), rtol=0.05, atol=0.05)


def test_op_errors_name_the_op():
    x, h = mf.zeros(4, 2, 8), mf.zeros(2, 2)
    w = mf.zeros(8, 2)
    with pytest.raises(ValueError, match=r"\[rnn_scan\] mode is 7"):
        apply("rnn_scan", [x, h, h, w], {"mode": 7})
    with pytest.raises(ValueError, match=r"\[rnn_scan\] w_hh is \[8, 3\]"):
        apply("rnn_scan", [x, h, h, mf.zeros(8, 3)], {"mode": 2})
    with pytest.raises(ValueError, match=r"\[rnn_scan\] batch_sizes must be positive and non-increasing"):
        apply("rnn_scan", [mf.zeros(4, 8), h, h, w], {"mode": 2, "batch_sizes": [1, 2, 1]})
    with pytest.raises(ValueError, match=r"\[rnn_scan\] batch_sizes sum to 3"):
        apply("rnn_scan", [mf.zeros(4, 8), h, h, w], {"mode": 2, "batch_sizes": [2, 1]})
    with pytest.raises(ValueError, match=r"\[rnn_scan\] batch_first with batch_sizes"):
        apply("rnn_scan", [mf.zeros(4, 8), h, h, w], {"mode": 2, "batch_sizes": [2, 2], "batch_first": True})
    with pytest.raises(ValueError, match=r"\[rnn_scan\] w_hr is \[2\]; expected \[proj_size, hidden\]"):
        apply("rnn_scan", [x, h[:, :1], h, w[:, :1], mf.zeros(2)], {"mode": 2, "has_proj": True})
    with pytest.raises(ValueError, match=r"\[rnn_scan\] h0 is \[2, 2\] float32; expected \[2, 1\]"):
        apply("rnn_scan", [x, h, h, w[:, :1], mf.zeros(1, 2)], {"mode": 2, "has_proj": True})
    with pytest.raises(ValueError, match=r"\[rnn_scan\] has_proj with mode 3"):
        apply("rnn_scan", [mf.zeros(4, 2, 6), h, mf.zeros(6, 1), mf.zeros(1, 2)], {"mode": 3, "has_proj": True})
    with pytest.raises(ValueError, match=r"\[rnn_scan\] reverse with bidirectional"):
        apply("rnn_scan", [mf.zeros(4, 2, 16), mf.zeros(2, 2, 2), mf.zeros(2, 2, 2), mf.zeros(16, 2)],
              {"mode": 2, "reverse": True, "bidirectional": True})
    with pytest.raises(ValueError, match=r"\[rnn_scan\] h0 is \[2, 2\]; expected \[2, batch, hidden\]"):
        apply("rnn_scan", [mf.zeros(4, 2, 16), h, h, mf.zeros(16, 2)], {"mode": 2, "bidirectional": True})
    with pytest.raises(ValueError, match=r"\[rnn_scan\] the input projection's last dim is 8; expected 16"):
        apply("rnn_scan", [x, mf.zeros(2, 2, 2), mf.zeros(2, 2, 2), mf.zeros(16, 2)], {"mode": 2, "bidirectional": True})


def test_double_backward_is_refused_clearly():
    m = nn.LSTM(2, 3).double()
    x = mf.tensor(RNG.standard_normal((3, 1, 2))).requires_grad_()
    (g,) = mf.autograd.grad(m(x)[0].sum(), x, create_graph=True)
    with pytest.raises(Exception, match=r"\[rnn_scan_backward\] has no gradient of its own"):
        g.sum().backward()


@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_graph_step_equals_eager(mode):
    """Two SGD steps of a two-layer bidirectional model, traced by nn.Graph and eager."""
    x = RNG.standard_normal((6, 3, 4)).astype(np.float32)
    p = mf.placement("cpu", ranks=[0])

    def model():
        mf.manual_seed(1)
        m = _make(mode, 4, 5, num_layers=2, bidirectional=True)
        m.to_global(p, mf.sbp.broadcast)
        return m, mf.optim.SGD(m.parameters(), lr=0.1)

    class Step(nn.Graph):
        def __init__(self, m, opt):
            super().__init__()
            self.m = m
            self.add_optimizer(opt)

        def build(self, inp):
            loss = (self.m(inp)[0] ** 2).sum()
            loss.backward()
            return loss

    gx = mf.tensor(x, placement=p, sbp=mf.sbp.broadcast)
    eager_m, eager_opt = model()
    graph_m, graph_opt = model()
    step = Step(graph_m, graph_opt)
    for _ in range(2):
        eager_opt.zero_grad()
        loss = (eager_m(gx)[0] ** 2).sum()
        loss.backward()
        eager_opt.step()
        np.testing.assert_allclose(step(gx).numpy(), loss.numpy(), rtol=1e-5)
    for a, b in zip(eager_m.parameters(), graph_m.parameters()):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6)
