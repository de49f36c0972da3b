"""Recurrent layers as torch's: nn.RNN, nn.LSTM, nn.GRU (num_layers, bias, batch_first, dropout
between layers, bidirectional, LSTM's proj_size, a PackedSequence as input) and the cells nn.RNNCell, nn.LSTMCell,
nn.GRUCell, with torch's parameter names (weight_ih_l{k}[_reverse], weight_hh_l..., bias_ih_l...,
bias_hh_l...), gate order (LSTM: i, f, g, o; GRU: r, z, n), init (U(-1/sqrt(hidden), 1/sqrt(hidden))) and results.

A layer and direction is one product for the input projections of all steps and one op,
rnn_scan (meshflow/ops/rnn.cc), for the recurrence: each step's h W_hh^T and its gates fused
(and LSTM's proj_size projection, h = (o tanh(c)) W_hr^T), as cuDNN's and oneDNN's RNN
primitives; its backward is one op too (no double backward). Bidirectional on more than one
thread, both directions are one product and one call (a thread each at two threads). A cell's call is the input's
product and rnn_scan over a sequence of one step, the same way. _cell composes a step of ops,
the reference the tests compare the op with."""
import math

from . import functional as F
from ._functional_extra import _zeros_for
from .modules import Module, Parameter, _check_size, _redraw, _reset_if_overridden, _uniform
from .._api import get_num_threads
from .._ops_elementwise import sigmoid, tanh
from .._ops_shape import cat, stack
from .._promotion import promote_types
from .._tensor import apply
from .utils.rnn import PackedSequence

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}
_MODE_IDS = {"RNN_TANH": 0, "RNN_RELU": 1, "LSTM": 2, "GRU": 3}  # meshflow/ops/rnn.h's Mode


def _cell(mode, x_proj, h, c, w_hh, b_hh, w_hr=None):
    """One step given the input's projection x_proj = x W_ih^T + b_ih, composed of ops (what
    rnn_scan fuses); returns (h', c') (an LSTM with proj_size: h' projected by w_hr)."""
    h_proj = F.linear(h, w_hh, b_hh)
    if mode == "LSTM":
        i, f, g, o = (x_proj + h_proj).chunk(4, -1)
        c = sigmoid(f) * c + sigmoid(i) * tanh(g)
        h = sigmoid(o) * tanh(c)
        return (h if w_hr is None else F.linear(h, w_hr)), c
    if mode == "GRU":
        xr, xz, xn = x_proj.chunk(3, -1)
        hr, hz, hn = h_proj.chunk(3, -1)
        r, z = sigmoid(xr + hr), sigmoid(xz + hz)
        n = tanh(xn + r * hn)
        return (1.0 - z) * n + z * h, None
    pre = x_proj + h_proj
    return (tanh(pre) if mode == "RNN_TANH" else F.relu(pre)), None


def _rnn_scan(mode, x_proj, h, c, w_hh, b_hh, dtype=None, w_hr=None, **attrs):
    """The op rnn_scan (meshflow/ops/rnn.cc) over the input's projection x_proj = x W_ih^T +
    b_ih (with LSTM's projection w_hr), with its attributes reverse, batch_first, batch_sizes;
    returns (y, h_n, c_n). Under autocast the projection may come out in a lower dtype than
    the state: the recurrence runs in `dtype`, by default the projection's (torch's layers')."""
    dtype = dtype or x_proj.dtype
    inputs = [x_proj, h] + ([c] if c is not None else []) + [w_hh] + ([b_hh] if b_hh is not None else []) + \
        ([w_hr] if w_hr is not None else [])
    if w_hr is not None:
        attrs["has_proj"] = True
    outs = apply("rnn_scan", [t if t.dtype == dtype else t.to(dtype) for t in inputs],
                 dict(attrs, mode=_MODE_IDS[mode], has_bias=b_hh is not None))
    return outs[0], outs[1], (outs[2] if c is not None else None)


class _RNNBase(Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if proj_size < 0 or (proj_size and proj_size >= hidden_size):
            raise ValueError("proj_size has to be a positive integer smaller than hidden_size" if proj_size > 0
                             else "proj_size should be a positive integer or zero to disable projections")
        if not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if hidden_size <= 0 or num_layers <= 0:
            raise ValueError("hidden_size and num_layers must be greater than 0")
        self.mode, self.input_size, self.hidden_size, self.num_layers = mode, input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout, self.bidirectional = bias, batch_first, float(dropout), bidirectional
        self.proj_size = proj_size
        directions = 2 if bidirectional else 1
        gates = _GATES[mode] * hidden_size
        out_size = proj_size or hidden_size  # h's size: the projection's with proj_size
        bound = 1.0 / math.sqrt(hidden_size)
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else out_size * directions
            for direction in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                setattr(self, "weight_ih" + suffix, Parameter(_uniform((gates, layer_input), bound, device, dtype)))
                setattr(self, "weight_hh" + suffix, Parameter(_uniform((gates, out_size), bound, device, dtype)))
                if bias:
                    setattr(self, "bias_ih" + suffix, Parameter(_uniform((gates,), bound, device, dtype)))
                    setattr(self, "bias_hh" + suffix, Parameter(_uniform((gates,), bound, device, dtype)))
                if proj_size:
                    setattr(self, "weight_hr" + suffix,
                            Parameter(_uniform((proj_size, hidden_size), bound, device, dtype)))
        _reset_if_overridden(self, _RNNBase)

    def reset_parameters(self):
        """Every parameter drawn anew from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), as the
        constructor draws them, in their order (torch's)."""
        _redraw(self.parameters(), 1.0 / math.sqrt(self.hidden_size))

    @property
    def _flat_weights_names(self):
        """The parameters' names in torch's order (layer, then direction, then w_ih, w_hh,
        b_ih, b_hh, w_hr)."""
        return [n for layer in range(self.num_layers) for d in range(2 if self.bidirectional else 1)
                for n in (name + f"_l{layer}" + ("_reverse" if d else "")
                          for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr"))
                if n in self._parameters]

    @property
    def _flat_weights(self):
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self):
        """torch's: the parameters of each layer and direction, a list of lists."""
        per = len(self._flat_weights_names) // (self.num_layers * (2 if self.bidirectional else 1))
        flat = self._flat_weights
        return [flat[i:i + per] for i in range(0, len(flat), per)]

    def flatten_parameters(self):
        """torch's cuDNN weight compaction: meshflow's weights are separate tensors already."""

    def _weights(self, layer, direction):
        suffix = f"_l{layer}" + ("_reverse" if direction else "")
        get = lambda name: getattr(self, name + suffix, None)  # noqa: E731
        return get("weight_ih"), get("weight_hh"), get("bias_ih"), get("bias_hh"), get("weight_hr")

    def _scan(self, layer, directions, layer_input, h, c, batch_sizes, batch_first=False):
        """One layer's `directions` ((0,), (1,) or both, (0, 1)): the input projections of
        every step in one product, then the op rnn_scan (meshflow/ops/rnn.cc) runs the steps,
        gates fused (and the projection with proj_size), reading and writing the sequences
        batch_first as given; both directions in that product and that call, their weights
        stacked (the states h and c [2, batch, .], y the layer's output [..., 2 state]).
        Returns (y, h_n, c_n)."""
        weights = zip(*(self._weights(layer, d) for d in directions))
        w_ih, w_hh, b_ih, b_hh, w_hr = (None if w[0] is None else w[0] if len(w) == 1 else cat(w, 0) for w in weights)
        attrs = {"bidirectional": True} if len(directions) == 2 else {"reverse": bool(directions[0])}
        if batch_first:
            attrs["batch_first"] = True
        if batch_sizes is not None:
            attrs["batch_sizes"] = batch_sizes
        return _rnn_scan(self.mode, F.linear(layer_input, w_ih, b_ih), h, c, w_hh, b_hh, w_hr=w_hr, **attrs)

    def forward(self, input, hx=None):
        lstm = self.mode == "LSTM"
        packed = isinstance(input, PackedSequence)
        if packed:
            # A packed batch runs step t on its batch_sizes[t] longest sequences only (they come
            # first): a shorter sequence's state stops at its last step, and in reverse starts there.
            sequence, input = input, input.data
            batch_sizes = sequence.batch_sizes.tolist()
            batched, batch = True, batch_sizes[0]
            if hx is not None and sequence.sorted_indices is not None:
                hx = tuple(t.index_select(1, sequence.sorted_indices) for t in hx) if lstm \
                    else hx.index_select(1, sequence.sorted_indices)
        elif input.ndim not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got {input.ndim}D instead")
        _check_size(self, input, -1, self.input_size, "input_size")
        # rnn_scan takes batch_first sequences as they are.
        batch_first = False
        if not packed:
            batched = input.ndim == 3
            if not batched:
                input = input.unsqueeze(1)
            elif self.batch_first:
                batch_first = True
            batch = input.shape[0 if batch_first else 1]
        directions = 2 if self.bidirectional else 1
        state_shape = (self.num_layers * directions, batch, self.hidden_size)  # c's; h's is proj_size with one
        h_shape = state_shape[:2] + (self.proj_size or self.hidden_size,)
        if hx is None:
            hx = (_zeros_for(input, *h_shape), _zeros_for(input, *state_shape)) if lstm else \
                _zeros_for(input, *state_shape)
        elif not batched:
            hx = tuple(t.unsqueeze(1) for t in hx) if lstm else hx.unsqueeze(1)
        h0, c0 = hx if lstm else (hx, None)
        for t, shape in ((h0, h_shape), (c0, state_shape)) if lstm else ((h0, state_shape),):
            if tuple(t.shape) != shape:
                raise RuntimeError(f"Expected hidden size {shape}, got {list(t.shape)}")
        # Both directions in one call where a team runs them side by side; on one thread it
        # gained nothing (the same work, and its backward's products over rows holding both
        # directions ran ~8% slower: LSTM of 256, batch 64, 50 steps).
        fused = directions == 2 and get_num_threads() > 1
        runs = [(0, 1)] if fused else [(d,) for d in range(directions)]
        h_n, c_n = [], []
        layer_input = input
        for layer in range(self.num_layers):
            outputs = []
            for run in runs:
                # The run's states: h_n's row, or both directions' rows [2, batch, .].
                at = slice(layer * 2, layer * 2 + 2) if fused else layer * directions + run[0]
                y, h, c = self._scan(layer, run, layer_input, h0[at], c0[at] if lstm else None,
                                     batch_sizes if packed else None, batch_first)
                outputs.append(y)
                h_n.append(h)
                c_n.append(c)
            layer_input = outputs[0] if len(outputs) == 1 else cat(outputs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        output = layer_input
        join = cat if fused else stack
        h_n = join(h_n, 0)
        c_n = join(c_n, 0) if lstm else None
        if packed:
            output = PackedSequence(output, sequence.batch_sizes, sequence.sorted_indices, sequence.unsorted_indices)
            if sequence.unsorted_indices is not None:
                h_n = h_n.index_select(1, sequence.unsorted_indices)
                c_n = c_n.index_select(1, sequence.unsorted_indices) if lstm else None
        elif not batched:
            output, h_n = output.squeeze(1), h_n.squeeze(1)
            c_n = c_n.squeeze(1) if lstm else None
        return output, ((h_n, c_n) if lstm else h_n)

    def extra_repr(self):
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if not self.bias:
            text += ", bias=False"
        if self.batch_first:
            text += ", batch_first=True"
        if self.dropout:
            text += f", dropout={self.dropout}"
        if self.bidirectional:
            text += ", bidirectional=True"
        if self.proj_size:
            text += f", proj_size={self.proj_size}"
        return text


class RNN(_RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, num_layers,
                         bias, batch_first, dropout, bidirectional, 0, device, dtype)
        self.nonlinearity = nonlinearity


class LSTM(_RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device, dtype)


class GRU(_RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional, 0,
                         device, dtype)


class _CellBase(Module):
    def __init__(self, mode, input_size, hidden_size, bias, device, dtype):
        super().__init__()
        self.mode, self.input_size, self.hidden_size, self.bias = mode, input_size, hidden_size, bias
        gates = _GATES[mode] * hidden_size
        bound = 1.0 / math.sqrt(hidden_size)
        self.weight_ih = Parameter(_uniform((gates, input_size), bound, device, dtype))
        self.weight_hh = Parameter(_uniform((gates, hidden_size), bound, device, dtype))
        self.bias_ih = Parameter(_uniform((gates,), bound, device, dtype)) if bias else None
        self.bias_hh = Parameter(_uniform((gates,), bound, device, dtype)) if bias else None
        _reset_if_overridden(self, _CellBase)

    def reset_parameters(self):
        """Every parameter drawn anew from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), as the
        constructor draws them."""
        _redraw(self.parameters(), 1.0 / math.sqrt(self.hidden_size))

    def forward(self, input, hx=None):
        if input.ndim not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got {input.ndim}D instead")
        lstm = self.mode == "LSTM"
        batched = input.ndim == 2
        if not batched:
            input = input.unsqueeze(0)
            if hx is not None:
                hx = tuple(t.unsqueeze(0) for t in hx) if lstm else hx.unsqueeze(0)
        if hx is None:
            h0 = _zeros_for(input, input.shape[0], self.hidden_size)
            hx = (h0, h0) if lstm else h0
        h, c = hx if lstm else (hx, None)
        x_proj = F.linear(input, self.weight_ih, self.bias_ih).unsqueeze(0)
        # torch's cells compose ops, whose results promote: a float32 state stays float32
        # under autocast.
        _, h, c = _rnn_scan(self.mode, x_proj, h, c, self.weight_hh, self.bias_hh, promote_types(x_proj.dtype, h.dtype))
        if not batched:
            h, c = h.squeeze(0), (c.squeeze(0) if lstm else None)
        return (h, c) if lstm else h

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}" + ("" if self.bias else ", bias=False")


class RNNCell(_CellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, bias, device,
                         dtype)
        self.nonlinearity = nonlinearity


class LSTMCell(_CellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, bias, device, dtype)


class GRUCell(_CellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, bias, device, dtype)
