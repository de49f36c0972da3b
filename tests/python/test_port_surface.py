"""The rest of the torch API a port meets (issue 37): packed sequences through the recurrent
layers, N-d losses, channel dropout, Embedding(max_norm), 1-d Linear, thread counts,
generator= and size= keywords. Expectations are written out by hand (torch's values and rules)."""
import math

import pytest

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow.nn.utils import rnn as rnn_utils


def close(a, b, tol=1e-5):
    a, b = (v.tolist() if hasattr(v, "tolist") else v for v in (a, b))
    flat = lambda v: [x for y in v for x in flat(y)] if isinstance(v, list) else [v]  # noqa: E731
    a, b = flat(a), flat(b)
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b))


# ---- packed sequences ----------------------------------------------------------------------

def padded_batch():
    """[T=3, B=3, 1] with sequence b's step t worth 10 * b + t; lengths 2, 3, 1."""
    return mf.tensor([[[10.0 * b + t] for b in range(3)] for t in range(3)]), [2, 3, 1]


def test_pack_padded_sequence_unsorted_keeps_the_permutation():
    x, lengths = padded_batch()
    packed = rnn_utils.pack_padded_sequence(x, lengths, enforce_sorted=False)
    assert isinstance(packed, rnn_utils.PackedSequence)
    # longest first: sequence 1 (3 steps), 0 (2), 2 (1); data is step-major
    assert packed.sorted_indices.tolist() == [1, 0, 2]
    assert packed.unsorted_indices.tolist() == [1, 0, 2]
    assert packed.batch_sizes.tolist() == [3, 2, 1]
    assert packed.data.reshape(-1).tolist() == [10, 0, 20, 11, 1, 12]
    padded, out_lengths = rnn_utils.pad_packed_sequence(packed, padding_value=-1.0, total_length=4)
    assert out_lengths.tolist() == [2, 3, 1]
    assert padded.reshape(4, 3).tolist() == [[0, 10, 20], [1, 11, -1], [-1, 12, -1], [-1, -1, -1]]


def test_pack_padded_sequence_batch_first_and_sorted():
    x, _ = padded_batch()
    packed = rnn_utils.pack_padded_sequence(x.transpose(0, 1), [3, 2, 2], batch_first=True)
    assert packed.sorted_indices is None and packed.unsorted_indices is None
    assert packed.batch_sizes.tolist() == [3, 3, 1]
    assert packed.data.reshape(-1).tolist() == [0, 10, 20, 1, 11, 21, 2]
    padded, lengths = rnn_utils.pad_packed_sequence(packed, batch_first=True)
    assert tuple(padded.shape) == (3, 3, 1) and lengths.tolist() == [3, 2, 2]
    assert padded.reshape(3, 3).tolist() == [[0, 1, 2], [10, 11, 0], [20, 21, 0]]


def test_pack_padded_sequence_errors():
    x, lengths = padded_batch()
    with pytest.raises(RuntimeError, match="must be sorted in decreasing order"):
        rnn_utils.pack_padded_sequence(x, lengths)
    with pytest.raises(RuntimeError, match="greater than 0"):
        rnn_utils.pack_padded_sequence(x, [3, 2, 0])


def test_pack_sequence():
    seqs = [mf.tensor([1.0, 2.0]), mf.tensor([3.0, 4.0, 5.0]), mf.tensor([6.0])]
    packed = rnn_utils.pack_sequence(seqs, enforce_sorted=False)
    assert packed.data.tolist() == [3, 1, 6, 4, 2, 5]
    assert packed.batch_sizes.tolist() == [3, 2, 1]
    with pytest.raises(RuntimeError, match="sorted in decreasing order"):
        rnn_utils.pack_sequence(seqs)


def linear_rnn(bidirectional=False, num_layers=1, batch_first=False):
    """An RNN with ReLU, input and hidden size 1, W_ih = 1, W_hh = 1, no bias: h_t = relu(x_t + h_{t-1}),
    a running sum of positive inputs."""
    model = nn.RNN(1, 1, num_layers=num_layers, nonlinearity="relu", bias=False, bidirectional=bidirectional,
                   batch_first=batch_first)
    with mf.no_grad():
        for p in model.parameters():
            p.fill_(1.0)
    return model


def test_rnn_on_a_packed_sequence_stops_each_sequence_at_its_length():
    x, lengths = padded_batch()
    packed = rnn_utils.pack_padded_sequence(x, lengths, enforce_sorted=False)
    output, h_n = linear_rnn()(packed)
    assert isinstance(output, rnn_utils.PackedSequence)
    assert output.batch_sizes.tolist() == [3, 2, 1]
    padded, _ = rnn_utils.pad_packed_sequence(output)
    # sequence 0: 0, 1 -> 0, 1; sequence 1: 10, 11, 12 -> 10, 21, 33; sequence 2: 20 -> 20
    assert padded.reshape(3, 3).tolist() == [[0, 10, 20], [1, 21, 0], [0, 33, 0]]
    assert h_n.reshape(-1).tolist() == [1, 33, 20]  # the caller's batch order


def test_bidirectional_rnn_on_a_packed_sequence_starts_reverse_at_each_end():
    x, lengths = padded_batch()
    packed = rnn_utils.pack_padded_sequence(x, lengths, enforce_sorted=False)
    output, h_n = linear_rnn(bidirectional=True)(packed)
    padded, _ = rnn_utils.pad_packed_sequence(output)
    # reverse sums from each sequence's own last step: sequence 0: 1, 0 -> 1, 1; 1: 33, 23, 12
    assert padded[:, :, 1].tolist() == [[1, 33, 20], [1, 23, 0], [0, 12, 0]]
    assert h_n.reshape(2, 3).tolist() == [[1, 33, 20], [1, 33, 20]]


def test_lstm_on_a_packed_sequence_matches_each_sequence_run_alone():
    mf.manual_seed(0)
    model = nn.LSTM(2, 3, num_layers=2, bidirectional=True, batch_first=True)
    seqs = [mf.randn(n, 2) for n in (2, 4, 3)]
    hx = (mf.randn(4, 3, 3), mf.randn(4, 3, 3))
    packed = rnn_utils.pack_sequence(seqs, enforce_sorted=False)
    output, (h_n, c_n) = model(packed, hx)
    padded, lengths = rnn_utils.pad_packed_sequence(output, batch_first=True)
    assert lengths.tolist() == [2, 4, 3]
    for b, seq in enumerate(seqs):
        alone, (h, c) = model(seq.unsqueeze(0), (hx[0][:, b:b + 1], hx[1][:, b:b + 1]))
        assert close(padded[b, :seq.shape[0]], alone[0])
        assert close(padded[b, seq.shape[0]:], [0.0] * (4 - seq.shape[0]) * 6)
        assert close(h_n[:, b], h[:, 0]) and close(c_n[:, b], c[:, 0])


def test_gru_on_a_packed_sequence_backpropagates():
    model = nn.GRU(2, 3)
    x = mf.randn(3, 2, 2).requires_grad_()
    output, h_n = model(rnn_utils.pack_padded_sequence(x, [3, 1]))
    (output.data.sum() + h_n.sum()).backward()
    assert x.grad[1:, 1].abs().sum().item() == 0.0  # padding takes no part
    assert x.grad[:, 0].abs().sum().item() > 0.0
