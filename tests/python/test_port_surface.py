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


# ---- losses on N-d inputs, channel dropout, Embedding(max_norm), 1-d Linear ----------------

def log_probs_2x2x2():
    """Log-probabilities [N=2, C=2, d=2] with easy values: input[n, c, d] = -(1 + n + 2c + 4d)."""
    return mf.tensor([[[-(1.0 + n + 2 * c + 4 * d) for d in range(2)] for c in range(2)] for n in range(2)])


def test_nll_loss_on_spatial_inputs():
    logp, target = log_probs_2x2x2(), mf.tensor([[0, 1], [1, 0]])
    # picked: (n0,d0,c0)=1, (n0,d1,c1)=7, (n1,d0,c1)=4, (n1,d1,c0)=6
    assert F.nll_loss(logp, target, reduction="none").tolist() == [[1.0, 7.0], [4.0, 6.0]]
    assert F.nll_loss(logp, target, reduction="sum").item() == 18.0
    assert F.nll_loss(logp, target).item() == 4.5
    weight = mf.tensor([1.0, 3.0])
    assert close(F.nll_loss(logp, target, weight=weight), (1 + 21 + 12 + 6) / 8)
    assert close(F.nll_loss(logp, target, ignore_index=1), (1 + 6) / 2)
    assert F.nll_loss(logp, target, ignore_index=1, reduction="none").tolist() == [[1.0, 0.0], [0.0, 6.0]]
    with pytest.raises(ValueError, match=r"nll_loss.*\[N, C, d1, \.\.\.\]"):
        F.nll_loss(logp, mf.tensor([0, 1]))


def test_cross_entropy_on_spatial_and_unbatched_inputs():
    logits = mf.tensor([[[0.0, 1.0], [0.0, -1.0]]])  # [N=1, C=2, d=2]
    target = mf.tensor([[1, 0]])
    # position 0: logits (0, 0), class 1 -> log 2; position 1: logits (1, -1), class 0 -> log(1 + e^-2)
    expected = [math.log(2.0), math.log(1.0 + math.exp(-2.0))]
    loss = F.cross_entropy(logits, target, reduction="none")
    assert tuple(loss.shape) == (1, 2) and close(loss, [expected])
    assert close(F.cross_entropy(logits, target), sum(expected) / 2)
    smoothed = F.cross_entropy(logits, target, reduction="none", label_smoothing=0.5)
    # (1 - s) nll + s / C * sum_c -logp_c
    assert close(smoothed, [[0.5 * expected[0] + 0.25 * 2 * math.log(2.0),
                             0.5 * expected[1] + 0.25 * (2 * math.log(1.0 + math.exp(-2.0)) + 2.0)]])
    assert close(F.cross_entropy(mf.tensor([0.0, 0.0, 0.0]), mf.tensor(2)), math.log(3.0))
    probabilities = mf.tensor([[[0.0, 1.0], [1.0, 0.0]]])
    assert close(F.cross_entropy(logits, probabilities, reduction="none"), [expected])
    assert close(nn.CrossEntropyLoss(ignore_index=0, reduction="sum")(logits, target), expected[0])


@pytest.mark.parametrize("cls, shape, per_channel", [
    ("Dropout1d", (8, 16, 5), 2), ("Dropout1d", (16, 5), 1), ("Dropout2d", (8, 16, 3, 3), 2),
    ("Dropout3d", (4, 16, 2, 2, 2), 2), ("Dropout3d", (16, 2, 2, 2), 1)])
def test_channel_dropout_drops_whole_channels(cls, shape, per_channel):
    mf.manual_seed(1)
    module = getattr(nn, cls)(p=0.5)
    x = mf.ones(*shape)
    channels = module(x).reshape(*shape[:per_channel], -1)
    lowest, highest = channels.min(-1).values, channels.max(-1).values
    assert (lowest == highest).all().item()  # one value per channel
    values = set(lowest.reshape(-1).tolist())
    assert values == {0.0, 2.0}  # dropped, or kept and scaled by 1 / (1 - p)
    module.eval()
    assert module(x).tolist() == x.tolist()
    assert nn.Dropout2d(p=1.0)(x).abs().sum().item() == 0.0


def test_channel_dropout_rejects_other_ranks():
    with pytest.raises(RuntimeError, match="dropout1d: Expected 2D or 3D input"):
        nn.Dropout1d()(mf.ones(1, 2, 3, 4))
    with pytest.raises(RuntimeError, match="dropout3d: Expected 4D or 5D input"):
        F.dropout3d(mf.ones(1, 2, 3))


def test_embedding_max_norm_renormalizes_looked_up_rows_in_place():
    weight = mf.tensor([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
    embedding = nn.Embedding(3, 2, max_norm=1.0, _weight=weight)
    out = embedding(mf.tensor([0, 1, 0]))
    scale = 1.0 / (5.0 + 1e-7)
    assert close(out, [[3 * scale, 4 * scale], [0.3, 0.4], [3 * scale, 4 * scale]])
    assert close(embedding.weight, [[3 * scale, 4 * scale], [0.3, 0.4], [6.0, 8.0]])  # row 2 not looked up
    l1 = nn.Embedding(3, 2, max_norm=2.0, norm_type=1.0, _weight=weight)
    assert close(l1(mf.tensor([2])), [[12.0 / 14, 16.0 / 14]])
    out.sum().backward()
    assert close(embedding.weight.grad, [[2.0, 2.0], [1.0, 1.0], [0.0, 0.0]])


def test_linear_on_a_vector():
    layer = nn.Linear(2, 3)
    with mf.no_grad():
        layer.weight.copy_(mf.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))
        layer.bias.copy_(mf.tensor([0.5, 0.0, -1.0]))
    out = layer(mf.tensor([2.0, 3.0]))
    assert tuple(out.shape) == (3,) and out.tolist() == [2.5, 3.0, 4.0]
    assert F.linear(mf.tensor([2.0, 3.0]), layer.weight).tolist() == [2.0, 3.0, 5.0]


# ---- threads, generator=, size= --------------------------------------------------------------

def test_set_num_threads():
    before = mf.get_num_threads()
    assert before >= 1
    try:
        mf.set_num_threads(1)
        assert mf.get_num_threads() == 1
        a = mf.ones(64, 64)
        assert (a @ a).sum().item() == 64.0 ** 3  # kernels still run with one thread
        with pytest.raises(ValueError, match="set_num_threads: 0 threads; expected at least 1"):
            mf.set_num_threads(0)
        with pytest.raises(TypeError):
            mf.set_num_threads(1.5)
    finally:
        mf.set_num_threads(before)
    assert mf.get_num_threads() == before


RANDOM_DRAWS = {
    "rand": lambda g: mf.rand(5, generator=g),
    "randn": lambda g: mf.randn(2, 3, generator=g),
    "randint": lambda g: mf.randint(0, 100, (6,), generator=g),
    "randperm": lambda g: mf.randperm(7, generator=g),
    "normal": lambda g: mf.normal(1.0, 2.0, size=(4,), generator=g),
    "normal_tensors": lambda g: mf.normal(mf.zeros(4), mf.ones(4), generator=g),
    "bernoulli": lambda g: mf.bernoulli(mf.full((8,), 0.5), generator=g),
    "multinomial": lambda g: mf.multinomial(mf.ones(6), 3, generator=g),
    "uniform_": lambda g: mf.empty(5).uniform_(-1.0, 1.0, generator=g),
    "normal_": lambda g: mf.empty(5).normal_(generator=g),
    "init.uniform_": lambda g: nn.init.uniform_(mf.empty(5), generator=g),
    "init.normal_": lambda g: nn.init.normal_(mf.empty(5), generator=g),
    "init.xavier_uniform_": lambda g: nn.init.xavier_uniform_(mf.empty(3, 4), generator=g),
    "init.xavier_normal_": lambda g: nn.init.xavier_normal_(mf.empty(3, 4), generator=g),
    "init.kaiming_uniform_": lambda g: nn.init.kaiming_uniform_(mf.empty(3, 4), generator=g),
    "init.kaiming_normal_": lambda g: nn.init.kaiming_normal_(mf.empty(3, 4), generator=g),
    "init.orthogonal_": lambda g: nn.init.orthogonal_(mf.empty(3, 4), generator=g),
    "init.trunc_normal_": lambda g: nn.init.trunc_normal_(mf.empty(5), generator=g),
}


@pytest.mark.parametrize("name", sorted(RANDOM_DRAWS))
def test_generator_draws_repeat_and_leave_the_global_generator_alone(name):
    draw = RANDOM_DRAWS[name]
    mf.manual_seed(5)
    state = mf.get_rng_state()
    first = [draw(mf.Generator().manual_seed(11)).tolist() for _ in range(2)]
    assert first[0] == first[1]
    assert mf.equal(mf.get_rng_state(), state)  # the process's generator did not move
    generator = mf.Generator().manual_seed(11)
    again, after = draw(generator).tolist(), draw(generator).tolist()
    assert again == first[0] and after != again  # the generator advances
    other = draw(mf.Generator().manual_seed(12)).tolist()
    assert other != first[0]


def test_a_seeded_generator_draws_what_manual_seed_draws():
    mf.manual_seed(7)
    expected = [mf.rand(3).tolist(), mf.randn(3).tolist(), mf.randperm(5).tolist()]
    g = mf.Generator().manual_seed(7)
    assert [mf.rand(3, generator=g).tolist(), mf.randn(3, generator=g).tolist(),
            mf.randperm(5, generator=g).tolist()] == expected
    state = g.get_state()
    next_draw = mf.rand(2, generator=g).tolist()
    assert mf.rand(2, generator=mf.Generator().set_state(state)).tolist() == next_draw


def test_size_keywords():
    assert tuple(mf.zeros(size=(2, 3)).shape) == (2, 3)
    assert mf.ones(size=[2]).tolist() == [1.0, 1.0]
    assert tuple(mf.empty(size=(1, 4)).shape) == (1, 4)
    assert tuple(mf.rand(size=(2, 2)).shape) == (2, 2)
    assert tuple(mf.randn(size=(3,), dtype=mf.float64).shape) == (3,)
    assert mf.full(size=(2,), fill_value=1.5).tolist() == [1.5, 1.5]
    x = mf.ones(2, dtype=mf.float64)
    zeros = x.new_zeros(size=(2, 3))
    assert tuple(zeros.shape) == (2, 3) and zeros.dtype == mf.float64
    assert x.new_ones(size=(1,)).tolist() == [1.0]
    assert tuple(x.new_empty(size=(4,)).shape) == (4,)
    assert tuple(mf.zeros(size=3).shape) == (3,)
    with pytest.raises(TypeError, match="zeros: give the size as arguments or as size=, not both"):
        mf.zeros(2, size=(2,))
