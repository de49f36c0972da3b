"""meshflow.nn.utils.rnn: torch.nn.utils.rnn's PackedSequence, pack_padded_sequence,
pad_packed_sequence, pack_sequence, pad_sequence and their inverses unpad_sequence and
unpack_sequence. nn.RNN, nn.LSTM and nn.GRU accept a
PackedSequence and return one."""
from collections import namedtuple
from itertools import accumulate

from ..._ops_creation import full
from ..._ops_shape import cat, stack
from ..._tensor import Tensor, _in_layout_of, tensor

__all__ = ["PackedSequence", "pack_padded_sequence", "pad_packed_sequence", "pack_sequence", "pad_sequence",
           "unpad_sequence", "unpack_sequence"]


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """The tensors in `sequences` ([L_i, *] each, the same * and dtype) stacked into one of
    [max L_i, B, *] (batch_first: [B, max L_i, *]), each padded with padding_value after its
    elements (padding_side="right") or before them ("left"). Gradients reach the inputs."""
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    if isinstance(sequences, Tensor):
        sequences = sequences.unbind(0)
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if any(s.ndim == 0 for s in sequences):
        raise RuntimeError("pad_sequence: expected every sequence to have at least 1 dim (a length), got a scalar")
    trailing = tuple(sequences[0].shape[1:])
    for s in sequences:
        if tuple(s.shape[1:]) != trailing:
            raise RuntimeError(f"pad_sequence: the sequences' trailing dims differ: {trailing} and "
                               f"{tuple(s.shape[1:])}; expected the same")
    longest = max(s.shape[0] for s in sequences)
    padded = []
    for s in sequences:
        missing = longest - s.shape[0]
        if missing:
            pad = _in_layout_of(full((missing,) + trailing, padding_value, dtype=s.dtype), s) if s.is_global \
                else full((missing,) + trailing, padding_value, dtype=s.dtype, device=s.device)
            s = cat([s, pad] if padding_side == "right" else [pad, s], 0)
        padded.append(s)
    return stack(padded, 0 if batch_first else 1)


class PackedSequence(namedtuple("PackedSequence", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    """Sequences of different lengths stored step by step: data holds step 0 of every sequence,
    then step 1 of every sequence still running, ... (sum(batch_sizes) rows); batch_sizes[t] is
    how many sequences are longer than t. The sequences are ordered longest first;
    sorted_indices maps that order to the caller's batch (None when it was already sorted)
    and unsorted_indices is its inverse."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = _invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return False

    def to(self, *args, **kwargs):
        """The same sequences with data moved or cast; the index tensors stay as they are."""
        data = self.data.to(*args, **kwargs)
        return self if data is self.data else type(self)(data, self.batch_sizes, self.sorted_indices,
                                                         self.unsorted_indices)

    def cpu(self):
        return self.to("cpu")

    def cuda(self, *args, **kwargs):
        return type(self)(self.data.cuda(*args, **kwargs), self.batch_sizes, self.sorted_indices,
                          self.unsorted_indices)

    def float(self):
        return self.to("float32")

    def double(self):
        return self.to("float64")


def _invert_permutation(permutation):
    order = permutation.tolist()
    inverse = [0] * len(order)
    for position, index in enumerate(order):
        inverse[index] = position
    return tensor(inverse, dtype="int64", device=permutation.device)


def _lengths_list(lengths):
    return [int(n) for n in (lengths.tolist() if isinstance(lengths, Tensor) else lengths)]


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Packs a padded batch ([T, B, *], batch_first: [B, T, *]) whose sequence b has
    lengths[b] steps. enforce_sorted: the lengths must be decreasing; otherwise the batch is
    sorted longest first (stably) and the permutation kept in the result."""
    lengths = _lengths_list(lengths)
    batch_dim = 0 if batch_first else 1
    if len(lengths) != input.shape[batch_dim]:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {len(lengths)} "
                           f"(batch_size={input.shape[batch_dim]})")
    device = None if input.is_global else input.device
    order = list(range(len(lengths)))
    if enforce_sorted:
        if any(a < b for a, b in zip(lengths, lengths[1:])):
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                               "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence "
                               "to sidestep this requirement if you do not need ONNX exportability.")
        sorted_indices = None
    else:
        order.sort(key=lambda b: -lengths[b])
        lengths = [lengths[b] for b in order]
        sorted_indices = tensor(order, dtype="int64", device=device)
    steps, batch = input.shape[1 - batch_dim], input.shape[batch_dim]
    if lengths and lengths[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           "that is <= 0")
    if lengths and lengths[0] > steps:
        raise RuntimeError(f"pack_padded_sequence: a length of {lengths[0]} exceeds the {steps} "
                           "steps of the padded input")
    batch_sizes = [sum(1 for n in lengths if n > t) for t in range(lengths[0] if lengths else 0)]
    # One gather of the steps' rows from the padded batch's ([T B, *], or [B T, *]), as torch's
    # one op: a slice per step made an op and a gradient each.
    rows = [b * steps + t if batch_first else t * batch + b for t, size in enumerate(batch_sizes) for b in order[:size]]
    data = input.reshape((steps * batch,) + tuple(input.shape[2:])).index_select(
        0, tensor(rows, dtype="int64", device=device))
    return PackedSequence(data, tensor(batch_sizes, dtype="int64"), sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The inverse of pack_padded_sequence: (padded [T, B, *] (batch_first: [B, T, *]) in the
    caller's batch order, lengths as an int64 tensor). total_length pads T up to that many steps."""
    data, batch_sizes = sequence.data, sequence.batch_sizes.tolist()
    steps, batch = len(batch_sizes), batch_sizes[0]
    if total_length is not None:
        if total_length < steps:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, "
                             f"but got total_length={total_length} and max sequence length being {steps}")
        steps = total_length
    trailing = tuple(data.shape[1:])
    pad = full((1,) + trailing, padding_value, dtype=data.dtype)
    pad = _in_layout_of(pad, data) if data.is_global else pad.to(data.device)
    # One gather from the rows and a padding row after them (row N), as torch's one op: the
    # padded position (t, b) is row offsets[t] + b's position in the sorted batch where b's
    # sequence has a step t.
    positions = list(range(batch)) if sequence.unsorted_indices is None else sequence.unsorted_indices.tolist()
    offsets = [0] + list(accumulate(batch_sizes))
    order = [(b, t) for b in range(batch) for t in range(steps)] if batch_first else \
        [(b, t) for t in range(steps) for b in range(batch)]
    rows = [offsets[t] + positions[b] if t < len(batch_sizes) and positions[b] < batch_sizes[t] else offsets[-1]
            for b, t in order]
    index = tensor(rows, dtype="int64", device=None if data.is_global else data.device)
    padded = cat([data, pad], 0).index_select(0, index)
    padded = padded.reshape(((batch, steps) if batch_first else (steps, batch)) + trailing)
    lengths = [sum(1 for size in batch_sizes if size > positions[b]) for b in range(batch)]
    return padded, tensor(lengths, dtype="int64")


def pack_sequence(sequences, enforce_sorted=True):
    """Packs a list of [L_i, *] tensors (longest first unless enforce_sorted=False)."""
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """pad_sequence's inverse: the list of each sequence's first lengths[i] steps, copies.
    Time-major input (batch_first=False) is transposed in place to batch-major, as torch's
    (the caller's tensor is then [batch, time, ...]), unless it has live views, whose shape
    meshflow cannot change in place (docs/porting.md): then it is left as it is."""
    if not batch_first:
        from ..._inplace import _live_views
        if _live_views(padded_sequences):
            padded_sequences = padded_sequences.transpose(0, 1)
        else:
            padded_sequences.transpose_(0, 1)
    return [seq[:length].clone() for seq, length in zip(padded_sequences.unbind(0), _lengths_list(lengths))]


def unpack_sequence(packed_sequences):
    """pack_sequence's inverse: the list of the packed sequences, in their original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
