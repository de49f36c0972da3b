"""Whole programs as PyTorch users write them (issue 37, twenty-fourth programs round: 100 written
blind, 90 agreeing with torch on their first run, then 85 more, 72), in the domains earlier rounds
stressed least: tabular and recommendation models (DLRM dot interactions, wide & deep, FM and
DeepFM, NeuMF, two towers with in-batch softmax, EmbeddingBag with offsets and per_sample_weights,
encodings by hand), audio (stft / istft with every window, mel filterbanks and MFCCs by hand, Conv1d
classifiers, CTC with greedy decoding, WaveNet's dilated causal convolutions, x-vectors, Conformer
convolutions), time series (TCN, LSTM seq2seq with teacher forcing, DeepAR, per-series
normalisation, windows by unfold, quantile losses), detection and segmentation heads (anchors, box
coding, IoU matching, focal, dice and GIoU losses, NMS, FCOS and YOLO targets, masks), metric
learning (batch-hard triplets, ArcFace, proxies, SupCon, retrieval), trainer classes with callbacks,
EMA, accumulation, bfloat16 autocast with a disabled GradScaler, warmup and cosine LambdaLR, label
smoothing, mixup and cutmix, torch.distributions, torch.special, torch.linalg, sparse and complex
tensors, printing and the numerics of promotion, integer division, bitwise ops, NaN and stable
sorts. Each program in port_programs24/ is torch's spelling, run unchanged but for its imports, and
must agree with what PyTorch 2 printed for it (expected.json), as test_port_programs9's. The focused
tests below pin each class of defect the round found."""
import os

import numpy as np
import pytest

import meshflow as mf
from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs24"), "u")


def test_ex_variants_report_failures_in_info_as_torch_s():
    S = mf.tensor([[2.0, 1.0], [1.0, 2.0]])
    L, info = mf.linalg.cholesky_ex(-S)  # torch 2's values: potrf stops at the first minor
    assert info.dtype == mf.int32 and info.item() == 1 and L.tolist() == [[-2.0, 0.0], [-1.0, -2.0]]
    L, info = mf.linalg.cholesky_ex(mf.tensor([[1.0, 2.0], [2.0, 1.0]]))
    assert info.item() == 2 and L.tolist() == [[1.0, 0.0], [2.0, -3.0]]
    L, info = mf.linalg.cholesky_ex(mf.stack([S, -S]), upper=True)
    assert info.tolist() == [0, 1] and np.allclose(L[0].numpy(), np.linalg.cholesky(S.numpy()).T)
    assert mf.linalg.inv_ex(mf.zeros(2, 2)).info.item() == 1
    assert mf.linalg.inv_ex(mf.tensor([[1.0, 0.0], [0.0, 0.0]])).info.item() == 2
    X, info = mf.linalg.solve_ex(mf.stack([S, mf.zeros(2, 2)]), mf.ones(2, 2))
    assert info.tolist() == [0, 1] and np.allclose(X[0].numpy(), [1 / 3, 1 / 3])
    assert np.allclose(mf.linalg.solve_ex(S, mf.ones(3, 2), left=False).result.numpy(), 1 / 3)
    with pytest.raises(mf.linalg.LinAlgError):
        mf.linalg.cholesky_ex(-S, check_errors=True)[0].tolist()
    x = S.clone().requires_grad_()
    L, info = mf.linalg.cholesky_ex(x)
    L.sum().backward()
    assert not info.requires_grad and np.allclose(x.grad.numpy(), [[0.2788, 0.1494], [0.1494, 0.4082]], atol=1e-4)


def test_float32_log10_is_the_rounded_value_as_torch_s():
    assert mf.log10(mf.tensor([6.714285850524902])).item() == np.float32(0.826999843120575)  # torch 2's
    x = np.random.RandomState(0).uniform(1e-3, 1e4, 2000).astype(np.float32)
    assert np.array_equal(mf.log10(mf.from_numpy(x)).numpy(), np.log10(x.astype(np.float64)).astype(np.float32))


def test_autocast_convolution_adds_its_bias_before_its_one_rounding():
    rs = np.random.RandomState(0)
    x = mf.from_numpy(rs.standard_normal((2, 3, 10)).astype(np.float32))
    w = mf.from_numpy(rs.standard_normal((4, 3, 3)).astype(np.float32) * 0.2)
    b = mf.from_numpy(rs.standard_normal(4).astype(np.float32) * 0.2)
    wt = mf.from_numpy(rs.standard_normal((3, 4, 3)).astype(np.float32) * 0.2)
    f = mf.nn.functional

    def rounded(t):
        return t.bfloat16().float()

    with mf.autocast("cpu", dtype=mf.bfloat16):
        y, yt = f.conv1d(x, w, b), f.conv_transpose1d(x, wt, b)
    # torch casts the bias with the operands and rounds the sum once
    assert y.dtype == yt.dtype == mf.bfloat16
    assert mf.equal(y.float(), rounded(f.conv1d(rounded(x), rounded(w), rounded(b))))
    assert mf.equal(yt.float(), rounded(f.conv_transpose1d(rounded(x), rounded(wt), rounded(b))))
    # bfloat16 operands outside autocast: a transposed convolution's bias too, one rounding
    yb = f.conv_transpose1d(x.bfloat16(), wt.bfloat16(), b.bfloat16())
    assert mf.equal(yb.float(), rounded(f.conv_transpose1d(rounded(x), rounded(wt), rounded(b))))
    xg = x.clone().requires_grad_()
    bg = b.clone().requires_grad_()
    with mf.autocast("cpu", dtype=mf.bfloat16):
        f.conv1d(xg, w, bg).float().sum().backward()
    assert bg.grad.dtype == mf.float32 and np.allclose(bg.grad.numpy(), 16.0)


def test_fold_and_unfold_take_complex_values_as_torch_s():
    rs = np.random.RandomState(1)
    z = mf.from_numpy((rs.standard_normal((1, 6, 5)) + 1j * rs.standard_normal((1, 6, 5))).astype(np.complex64))
    f = mf.nn.functional
    folded = f.fold(z, (1, 7), (1, 3), stride=(1, 1))
    assert folded.dtype == mf.complex64
    parts = f.fold(z.real, (1, 7), (1, 3)).numpy() + 1j * f.fold(z.imag, (1, 7), (1, 3)).numpy()
    assert np.allclose(folded.numpy(), parts)
    back = f.unfold(folded, (1, 3))
    assert np.allclose(back.numpy(), f.unfold(folded.real, (1, 3)).numpy() + 1j * f.unfold(folded.imag, (1, 3)).numpy())
    x = mf.from_numpy(rs.standard_normal(64).astype(np.float32))
    spec = mf.stft(x, 16, hop_length=4, window=mf.hann_window(16), onesided=False, return_complex=True)
    y = mf.istft(spec, 16, hop_length=4, window=mf.hann_window(16), onesided=False, return_complex=True, length=64)
    assert y.dtype == mf.complex64 and np.allclose(y.numpy(), x.numpy(), atol=1e-5)


def test_sparse_softmax_over_the_specified_entries_as_torch_s():
    i = mf.tensor([[0, 0, 1, 2], [0, 2, 1, 0]])
    v = mf.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    S = mf.sparse_coo_tensor(i, v, (3, 3))
    # torch 2's values
    rows = mf.sparse.softmax(S, 1).to_dense().tolist()
    assert np.allclose(rows, [[0.26894143, 0.0, 0.7310586], [0, 1, 0], [1, 0, 0]])
    columns = mf.sparse.softmax(S, 0).to_dense().tolist()
    assert np.allclose(columns, [[0.047425874, 0.0, 1.0], [0, 1, 0], [0.95257413, 0, 0]])
    assert np.allclose(mf.sparse.log_softmax(S, 1).values().tolist(), [-1.3132616, -0.31326169, 0.0, 0.0])
    (mf.sparse.softmax(S, 1).to_dense() * mf.arange(9.0).view(3, 3)).sum().backward()
    assert np.allclose(v.grad.tolist(), [-0.39322388, 0.39322385, 0.0, 0.0])


def test_geqrf_is_lapack_s_factorization_as_torch_s():
    A = mf.tensor([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0], [1.0, 0.0, 1.0]])
    a, tau = mf.geqrf(A)  # torch 2's values
    assert np.allclose(a.tolist(), [[-2.4494898, -2.0412414, -0.8164966], [0.22474489, -2.6140645, -2.0402455],
                                    [0.0, 0.20281668, -3.6291504], [0.22474489, -0.13862589, 0.17199391]], atol=1e-6)
    assert np.allclose(tau.tolist(), [1.8164965, 1.8861666, 1.9425361], atol=1e-6)
    Q = mf.linalg.householder_product(a, tau)
    assert np.allclose((Q @ a.triu()[:3]).numpy(), A.numpy(), atol=1e-5)
    assert type(A.double().geqrf()).__name__ == "geqrf" and A.double().geqrf().tau.dtype == mf.float64


def test_running_extremes_searches_and_unique_meet_nan_as_torch_s():
    nan = float("nan")
    x = mf.tensor([3.0, nan, 1.0, nan, -2.0, 1.0])
    # torch 2's values: NaN wins from where it stands, at the last NaN's index
    assert mf.cummin(x, 0).indices.tolist() == [0, 1, 1, 3, 3, 3] == mf.cummax(x, 0).indices.tolist()
    # its binary search, step for step: a NaN value goes last, a NaN boundary where the midpoints meet it
    v = mf.tensor([0.5, 1.0, 2.5, nan, float("inf")])
    expected = {(1.0, 2.0, nan): ([0, 0, 3, 3, 3], [0, 1, 3, 3, 3]),
                (1.0, 2.0, 3.0): ([0, 0, 2, 3, 3], [0, 1, 2, 3, 3]),
                (nan, nan): ([2] * 5, [2] * 5), (1.0, nan, nan): ([3] * 5, [3] * 5)}
    for seq, (left, right) in expected.items():
        s = mf.tensor(seq)
        assert mf.searchsorted(s, v).tolist() == left and mf.searchsorted(s, v, right=True).tolist() == right
        assert mf.bucketize(v, s).tolist() == left and mf.bucketize(v, s, right=True).tolist() == right
    assert mf.searchsorted(mf.tensor([[1.0, 2.0], [nan, nan]]), mf.tensor([[1.5], [nan]])).tolist() == [[1], [2]]
    values, inverse, counts = mf.unique(x, return_inverse=True, return_counts=True)  # each NaN apart
    assert values.numel() == 5 and inverse.tolist() == [2, 3, 1, 4, 0, 1] and counts.tolist() == [1, 2, 1, 1, 1]


def test_spherical_bessel_j0_as_torch_s():
    got = mf.special.spherical_bessel_j0(mf.tensor([0.0, 1e-4, 1.0, 3.0, -2.0]))
    assert np.allclose(got.tolist(), [1.0, 1.0, 0.8414709568023682, 0.047040000557899475, 0.4546487033367157])
    assert mf.special.spherical_bessel_j0(mf.tensor([0, 2])).dtype == mf.float32
    x = mf.tensor([0.0, 1.0], requires_grad=True)
    mf.special.spherical_bessel_j0(x).sum().backward()
    assert np.allclose(x.grad.tolist(), [0.0, np.cos(1.0) - np.sin(1.0)])


def test_kl_divergence_across_families_and_of_dirichlets_as_torch_s():
    from meshflow.distributions import (Beta, Dirichlet, Exponential, Gamma, Gumbel, Laplace, Normal, Uniform,
                                        kl_divergence)
    n = Normal(mf.tensor([0.3, -1.0]), mf.tensor([1.5, 0.7]))
    u = Uniform(mf.tensor([0.1, 0.2]), mf.tensor([0.6, 0.9]))
    e = Exponential(mf.tensor([1.5, 0.5]))
    g = Gamma(mf.tensor([2.0, 3.5]), mf.tensor([1.0, 0.5]))
    b = Beta(mf.tensor([2.0, 0.7]), mf.tensor([3.0, 1.2]))
    lap = Laplace(mf.tensor([0.2, -0.3]), mf.tensor([1.0, 2.0]))
    gu = Gumbel(mf.tensor([0.5, -0.2]), mf.tensor([1.2, 0.8]))
    # torch 2's values (4 decimals)
    expected = {(u, n): [2.0227, 3.4121], (e, g): [1.0548, 2.644], (gu, n): [0.2683, 1.907], (n, lap): [0.0682, 0.7324],
                (g, gu): [0.3064, 6.1503], (u, b): [0.2739, 0.5537], (b, u): [np.inf] * 2, (n, e): [np.inf] * 2}
    for (p, q), want in expected.items():
        assert np.allclose(kl_divergence(p, q).tolist(), want, atol=1e-4), (type(p).__name__, type(q).__name__)
    with pytest.raises(NotImplementedError):
        kl_divergence(u, lap)  # torch has no closed form for it either
    got = kl_divergence(Dirichlet(mf.tensor([1.0, 2.0])), Dirichlet(mf.tensor([2.0, 2.0]))).item()
    assert got == pytest.approx(0.4013878, abs=1e-5)


def test_distribution_modes_and_gamma_cdf_as_torch_s():
    from meshflow.distributions import Beta, Dirichlet, Gamma, MultivariateNormal, Poisson
    # torch 2's values
    assert np.allclose(Gamma(mf.tensor([2.0, 0.5]), mf.tensor([1.0, 2.0])).mode.tolist(), [1.0, 0.0])
    assert np.allclose(Beta(mf.tensor([2.0, 0.5, 3.0]), mf.tensor([5.0, 0.5, 1.0])).mode.tolist(), [0.2, 1.0, 1.0])
    assert np.allclose(Dirichlet(mf.tensor([2.0, 3.0, 4.0])).mode.tolist(), [1 / 6, 1 / 3, 0.5])
    assert Poisson(mf.tensor([2.5, 3.0])).mode.tolist() == [2.0, 3.0]
    assert MultivariateNormal(mf.ones(2), mf.eye(2)).mode.tolist() == [1.0, 1.0]
    cdf = Gamma(mf.tensor([2.0, 5.0]), mf.tensor([1.0, 2.0])).cdf(mf.tensor([1.0, 1.0]))
    assert np.allclose(cdf.tolist(), [0.26424112915992737, 0.05265302211046219])


def test_arange_checks_its_last_value_not_its_excluded_end_and_halfnormal_icdf():
    assert mf.arange(256, dtype=mf.uint8)[-1].item() == 255
    assert mf.arange(0, 256, 51, dtype=mf.uint8).tolist() == [0, 51, 102, 153, 204, 255]
    with pytest.raises(mf.OpError, match="last 259 does not fit in uint8"):
        mf.arange(250, 260, dtype=mf.uint8).tolist()  # torch wraps to 0 ... 3; meshflow refuses
    from meshflow.distributions import HalfNormal
    q = mf.tensor([0.1, 0.5, 0.9])
    assert np.allclose(HalfNormal(1.0).cdf(HalfNormal(1.0).icdf(q)).tolist(), q.tolist(), atol=1e-6)
