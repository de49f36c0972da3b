"""Whole programs as PyTorch users write them (issue 37, thirteenth programs round, written
blind). Each program in port_programs13/ is torch's spelling, run unchanged but for its
imports, and must agree with what PyTorch 2 printed for it (expected.json), as
test_port_programs9's. The focused tests below pin each class of defect the round found."""
import os

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs13"), "r")


def test_embedding_reprs_name_the_options_that_differ_from_the_defaults_as_torch_s():
    assert repr(nn.Embedding(10, 4, padding_idx=2, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, sparse=True)) == \
        "Embedding(10, 4, padding_idx=2, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, sparse=True)"
    assert repr(nn.Embedding(10, 4, max_norm=2)) == "Embedding(10, 4, max_norm=2)"
    assert repr(nn.EmbeddingBag(10, 4, max_norm=1.0, norm_type=3, mode="max", padding_idx=1)) == \
        "EmbeddingBag(10, 4, max_norm=1.0, norm_type=3, mode='max', padding_idx=1)"
    assert repr(nn.EmbeddingBag(10, 4)) == "EmbeddingBag(10, 4, mode='mean')"


def _log_softmax(a):
    a = a - a.max(1, keepdims=True)
    return a - np.log(np.exp(a).sum(1, keepdims=True))


def test_adaptive_log_softmax_with_loss_as_torch_s():
    asm = nn.AdaptiveLogSoftmaxWithLoss(6, 12, [3, 7], div_value=2.0, head_bias=True)
    assert [n for n, _ in asm.named_parameters()] == ["head.weight", "head.bias", "tail.0.0.weight", "tail.0.1.weight",
                                                      "tail.1.0.weight", "tail.1.1.weight"]
    assert [tuple(p.shape) for p in asm.parameters()] == [(5, 6), (5,), (3, 6), (4, 3), (1, 6), (5, 1)]
    h = np.random.RandomState(0).standard_normal((5, 6)).astype(np.float32)
    # every class's log-probability: the head's for the shortlist, head's cluster entry + the cluster's own
    W = {n: p.detach().numpy() for n, p in asm.named_parameters()}
    head = _log_softmax(h @ W["head.weight"].T + W["head.bias"])
    full = np.concatenate([head[:, :3]] + [
        _log_softmax(h @ W[f"tail.{i}.0.weight"].T @ W[f"tail.{i}.1.weight"].T) + head[:, 3 + i:4 + i]
        for i in range(2)], 1)
    x = mf.from_numpy(h).requires_grad_()
    target = [11, 1, 5, 3, 0]
    out = asm(x, mf.tensor(target))
    assert np.allclose(out.output.detach().numpy(), full[range(5), target], atol=1e-5)
    assert abs(out.loss.item() + full[range(5), target].mean()) < 1e-5
    out.loss.backward()
    assert x.grad.shape == (5, 6) and asm.tail[1][0].weight.grad is not None
    assert np.allclose(asm.log_prob(x).detach().numpy(), full, atol=1e-5)
    assert asm.predict(x).tolist() == full.argmax(1).tolist()
    assert abs(asm(x[0], mf.tensor(9)).output.item() - full[0, 9]) < 1e-5  # one row, a 0-d target
    with pytest.raises(RuntimeError):
        asm(x, mf.tensor([0, 1, 2, 3, 12]))  # a class past n_classes
    with pytest.raises(RuntimeError):
        asm(x, mf.tensor([0, 1]))
    with pytest.raises(ValueError):
        nn.AdaptiveLogSoftmaxWithLoss(6, 12, [3, 3])


def test_shape_changes_in_place_of_a_view_keep_it_a_view_of_its_base():
    # torch's transpose_ / t_ / unsqueeze_ of a view change the view's geometry alone: writes
    # through it still reach the base, and writes to the base still reach it
    base = mf.arange(6.0)
    v = base.view(2, 3)
    v.swapaxes_(0, 1)
    v[0, 1] = 50.0
    assert v.shape == (3, 2) and not v.is_contiguous() and base.tolist() == [0.0, 1.0, 2.0, 50.0, 4.0, 5.0]
    base[2] = -1.0
    assert v.tolist() == [[0.0, 50.0], [1.0, 4.0], [-1.0, 5.0]]
    c = mf.zeros(4, 3)
    rows = c[1:3]
    rows.t_()
    rows.mul_(0).add_(mf.arange(6.0).view(3, 2))
    assert c.tolist() == [[0.0] * 3, [0.0, 2.0, 4.0], [1.0, 3.0, 5.0], [0.0] * 3]
    e = mf.ones(2, 3, requires_grad=True)
    g = (e * 2)[0]
    g.unsqueeze_(1)
    g.sum().backward()
    assert g.shape == (3, 1) and e.grad.tolist() == [[2.0] * 3, [0.0] * 3]


def test_linalg_eig_of_real_matrices_is_lapack_s_as_torch_s():
    rs = np.random.RandomState(3)
    A = rs.standard_normal((2, 5, 5))  # real matrices with complex pairs of eigenvalues
    w, V = mf.linalg.eig(mf.from_numpy(A))
    assert w.dtype == V.dtype == mf.complex128 and w.shape == (2, 5) and V.shape == (2, 5, 5)
    want_w, want_V = np.linalg.eig(A)  # geev's order and unit-norm vectors, which torch returns
    assert np.allclose(w.numpy(), want_w, atol=1e-10) and np.allclose(V.numpy(), want_V, atol=1e-10)
    assert np.allclose(mf.linalg.eigvals(mf.from_numpy(A)).numpy(), want_w, atol=1e-10)
    w, V = mf.linalg.eig(mf.from_numpy(A.astype(np.float32)))  # a real vector's sign is float32's rounding's
    assert w.dtype == V.dtype == mf.complex64 and np.allclose(w.numpy(), want_w, atol=1e-4)
    assert np.allclose(A @ V.numpy(), V.numpy() * w.numpy()[:, None, :], atol=1e-4)
    assert np.allclose(np.linalg.norm(V.numpy(), axis=1), 1.0, atol=1e-5)
    assert mf.linalg.eigvals(mf.eye(2)).tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="square"):
        mf.linalg.eig(mf.ones(2, 3))
    with pytest.raises(NotImplementedError, match="no gradient"):
        mf.linalg.eig(mf.ones(2, 2, requires_grad=True))


def test_transforms_have_torch_s_inverse_objects_and_compositions():
    T = mf.distributions.transforms
    D = mf.distributions
    x = np.array([0.5, 1.0, 3.0])
    # the logistic distribution: a uniform through the inverse sigmoid, then scaled
    logistic = D.TransformedDistribution(D.Uniform(mf.zeros(3), mf.ones(3)), [T.SigmoidTransform().inv,
                                                                               T.AffineTransform(loc=1.0, scale=2.0)])
    z = (x - 1.0) / 2.0
    assert np.allclose(logistic.log_prob(mf.tensor(x, dtype=mf.float32)).numpy(),
                       -z - 2 * np.log1p(np.exp(-z)) - np.log(2.0), atol=1e-5)
    sigmoid = T.SigmoidTransform()
    assert sigmoid.inv.inv is sigmoid and sigmoid.inv.codomain is sigmoid.domain
    comp = T.ComposeTransform([T.AffineTransform(1.0, 3.0), T.ExpTransform()])
    u = mf.tensor([0.0, 0.5])
    y = comp(u)
    assert np.allclose(y.numpy(), np.exp(1 + 3 * u.numpy())) and np.allclose(comp.inv(y).numpy(), u.numpy(), atol=1e-6)
    assert np.allclose(comp.log_abs_det_jacobian(u, y).numpy(), np.log(3.0) + 1 + 3 * u.numpy())
    assert np.allclose(comp.inv.log_abs_det_jacobian(y, u).numpy(), -(np.log(3.0) + 1 + 3 * u.numpy()))
    softplus, power = T.SoftplusTransform(), T.PowerTransform(2.0)
    assert np.allclose(softplus.inv(softplus(u)).numpy(), u.numpy(), atol=1e-6)
    assert np.allclose(power.log_abs_det_jacobian(mf.tensor([3.0]), power(mf.tensor([3.0]))).numpy(), np.log(6.0))


def test_unpad_sequence_transposes_a_time_major_input_in_place_and_returns_copies():
    padded = nn.utils.rnn.pad_sequence([mf.ones(2, 3), mf.zeros(1, 3)])  # [time, batch, 3]
    parts = nn.utils.rnn.unpad_sequence(padded, mf.tensor([2, 1]))
    assert padded.shape == (2, 2, 3)  # torch's unpad_sequence leaves its input batch-major
    parts[0].fill_(5.0)
    assert padded[0].sum().item() == 6.0 and [tuple(p.shape) for p in parts] == [(2, 3), (1, 3)]


def test_saved_parameters_and_tensors_requiring_grad_load_as_they_were(tmp_path):
    t = mf.tensor([1.0, 2.0], requires_grad=True)
    frozen = nn.Parameter(mf.ones(1), requires_grad=False)
    mf.save({"t": t, "p": nn.Parameter(mf.ones(2)), "frozen": frozen, "plain": t.detach()}, str(tmp_path / "x.pt"))
    loaded = mf.load(str(tmp_path / "x.pt"))
    assert loaded["t"].requires_grad and loaded["t"].is_leaf and not isinstance(loaded["t"], nn.Parameter)
    assert isinstance(loaded["p"], nn.Parameter) and loaded["p"].requires_grad
    assert isinstance(loaded["frozen"], nn.Parameter) and not loaded["frozen"].requires_grad
    assert not loaded["plain"].requires_grad


def test_functional_spellings_of_view_methods_make_views():
    # Barlow Twins' loss: torch.diagonal(c).add_(-1).pow_(2) writes c's diagonal
    c = mf.arange(9.0).view(3, 3) + 1
    mf.diagonal(c).add_(-1).pow_(2)
    assert c.tolist() == [[0.0, 2.0, 3.0], [4.0, 16.0, 6.0], [7.0, 8.0, 64.0]]
    x = mf.zeros(2, 3)
    for made in (mf.transpose(x, 0, 1), mf.narrow(x, 1, 1, 2), mf.split(x, 1)[1], mf.chunk(x, 3, dim=1)[2],
                 mf.reshape(x, (6,)), mf.flatten(x), mf.unsqueeze(x, 0), mf.permute(x, (1, 0)), mf.squeeze(x[None], 0)):
        made.add_(1)
    assert x.tolist() == [[6.0, 7.0, 8.0], [7.0, 8.0, 9.0]]  # torch's


# torch 2's answers for a [2, 3, 4] tensor's views: stride(), is_contiguous()
_TORCH_STRIDES = {
    "t01": ((4, 12, 1), False), "sl": ((12, 4, 1), False), "sl2": ((12, 4, 1), False), "row": ((12, 4, 1), True),
    "step": ((12, 8, 1), False), "perm": ((1, 12, 4), False), "sel": ((12, 1), False), "narrow": ((12, 4, 1), False),
    "chunk": ((12, 4, 1), False), "split0": ((12, 4, 1), True), "ell": ((12, 4), False), "unsq": ((12, 12, 4, 1), True),
    "tview": ((1, 4), False), "flat_of_t": ((8, 1), True), "det": ((12, 4, 1), True), "mT": ((12, 1, 4), False),
    "none": ((24, 4, 1), True)}


def test_views_have_torch_s_strides_and_reshape_as_torch_s():
    x = mf.arange(24.0).view(2, 3, 4)
    views = {"t01": x.transpose(0, 1), "sl": x[:, 1:], "sl2": x[:, :, 1:], "row": x[1:], "step": x[:, ::2],
             "perm": x.permute(2, 0, 1), "sel": x[:, 1], "narrow": x.narrow(2, 1, 2), "chunk": x.chunk(2, dim=2)[1],
             "split0": x.split(1)[1], "ell": x[..., 0], "unsq": x.unsqueeze(1), "tview": x.transpose(1, 2)[0],
             "flat_of_t": x.transpose(0, 1).reshape(3, 8), "det": x.detach(), "mT": x.mT, "none": x[None, 0]}
    assert {k: (v.stride(), v.is_contiguous()) for k, v in views.items()} == _TORCH_STRIDES
    assert mf.ones(3, 1).expand(3, 4).stride() == (1, 0) and mf.arange(9.0).view(3, 3).diagonal().stride() == (4,)
    # view() refuses what torch's strides cannot express; a split of a dim is fine (nanoGPT's q.view(B, T, H, D))
    for refused in (lambda: x[:, 1:].view(-1), lambda: x.transpose(1, 2).view(2, 12)):
        with pytest.raises(RuntimeError, match="view size is not compatible"):
            refused()
    assert x.split(2, dim=2)[0].view(2, 3, 2, 1).stride() == (12, 4, 1, 1)
    assert x[:, :, 1:].view(6, 3).shape == (6, 3) and x[:, 1:].view(2, 8).shape == (2, 8)
    # reshape / flatten copy where torch's cannot view (writes stay in the copy), view where it can
    f = mf.arange(9.0).view(3, 3) + 1
    f.flatten()[:-1].view(2, 4)[:, 1:].flatten().pow_(2)  # Barlow Twins' off_diagonal, written to
    assert f.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]
    g = mf.arange(12.0).view(3, 4)
    g[:, 1:].reshape(9).mul_(0)  # a copy
    assert g.tolist() == [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]
    g[:, 1:].reshape(3, 3).mul_(0)  # its own shape: a view
    h = mf.arange(12.0).view(3, 4)
    h[1:].reshape(-1).mul_(0)  # rows: a view
    assert g.tolist() == [[0.0, 0.0, 0.0, 0.0], [4.0, 0.0, 0.0, 0.0], [8.0, 0.0, 0.0, 0.0]]
    assert h.tolist() == [[0.0, 1.0, 2.0, 3.0], [0.0] * 4, [0.0] * 4]
    s = x[:, 1:]
    assert s.contiguous() is not s and x.transpose(0, 1).contiguous().is_contiguous()


def test_conv_repr_prints_string_padding_as_torch_s():
    assert repr(nn.Conv1d(2, 2, 3, padding="same")) == "Conv1d(2, 2, kernel_size=(3,), stride=(1,), padding=same)"
    assert repr(nn.Conv2d(1, 1, 3, padding="valid")) == "Conv2d(1, 1, kernel_size=(3, 3), stride=(1, 1), padding=valid)"


def test_conjugate_bit_queries_answer_for_computed_conjugates():
    z = mf.polar(mf.ones(2), mf.tensor([0.0, 1.5707964]))
    c = z.conj()
    assert c.resolve_conj() is c and mf.resolve_conj(c) is c and c.resolve_neg() is c and mf.resolve_neg(c) is c
    assert not c.is_conj() and not mf.is_conj(c) and not c.is_neg() and not mf.is_neg(c)
    assert np.allclose(mf.view_as_real(c.resolve_conj()).numpy(), [[1.0, 0.0], [0.0, -1.0]], atol=1e-6)
