"""What ported programs met (issue 37, fifth programs round), against NumPy and torch's
documented rules: a leaf's .grad is a tensor of its own, accumulated in place."""
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn


# ---- a leaf's .grad is its own tensor, which later backwards add into (torch's AccumulateGrad)

def test_grad_seen_earlier_follows_later_accumulation():
    x = mf.ones(3, requires_grad=True)
    (x * 2).sum().backward()
    g = x.grad
    (x * 3).sum().backward()
    assert g.numpy().tolist() == [5.0, 5.0, 5.0] and x.grad.numpy().tolist() == [5.0, 5.0, 5.0]
    g.zero_()  # a zeroed .grad (zero_grad(set_to_none=False)) takes the next backward's
    (x * 4).sum().backward()
    assert g.numpy().tolist() == [4.0, 4.0, 4.0] and x.grad.numpy().tolist() == [4.0, 4.0, 4.0]


def test_gradients_an_add_hands_to_both_inputs_are_separate_tensors():
    a = mf.ones(3, requires_grad=True)
    b = mf.ones(3, requires_grad=True)
    c = mf.ones(3, 1, requires_grad=True)
    (a + b + c.view(3)).sum().backward()
    a.grad.mul_(4)  # an in-place op on one .grad
    b.grad[0] = 7.0  # a write into one .grad's memory
    assert a.grad.numpy().tolist() == [4.0, 4.0, 4.0]
    assert b.grad.numpy().tolist() == [7.0, 1.0, 1.0]
    assert c.grad.numpy().tolist() == [[1.0], [1.0], [1.0]]


def test_the_seed_passed_to_backward_is_not_the_leaf_s_grad():
    x = mf.ones(3, requires_grad=True)
    seed = mf.tensor([1.0, 2.0, 3.0])
    x.backward(seed)
    x.grad.mul_(2)
    x.grad[0] = -1.0
    assert seed.numpy().tolist() == [1.0, 2.0, 3.0] and x.grad.numpy().tolist() == [-1.0, 4.0, 6.0]
    y = mf.ones(3, requires_grad=True)
    (y * 1.0).view(3, 1).backward(seed.view(3, 1))  # the seed's memory reaches the leaf through views
    y.grad[1] = 0.0
    assert seed.numpy().tolist() == [1.0, 2.0, 3.0] and y.grad.numpy().tolist() == [1.0, 0.0, 3.0]


def test_clip_grad_norm_scales_parameters_an_add_joined_once():
    # two biases summed into one output get one gradient from add's backward: clipping scales
    # each parameter's gradient once (it scaled the shared one twice)
    b1 = nn.Parameter(mf.zeros(4))
    b2 = nn.Parameter(mf.zeros(4))
    w = mf.tensor([1.0, 2.0, 3.0, 4.0])
    ((b1 + b2) * w).sum().backward()
    total = nn.utils.clip_grad_norm_([b1, b2], 1.0)
    want = np.array([1.0, 2.0, 3.0, 4.0]) / (np.sqrt(2 * 30.0) + 1e-6)
    assert np.isclose(total.item(), np.sqrt(60.0))
    assert np.allclose(b1.grad.numpy(), want) and np.allclose(b2.grad.numpy(), want)


def test_double_backward_keeps_a_differentiable_grad():
    x = mf.tensor([1.0, 2.0], requires_grad=True)
    (x ** 3).sum().backward(create_graph=True)
    assert x.grad.requires_grad
    g = x.grad
    x.grad = None
    g.sum().backward()
    assert x.grad.numpy().tolist() == [6.0, 12.0]


# ---- a float32 dot over many elements keeps float32's precision (torch's dot is a cascade)

def test_dot_of_long_vectors_keeps_its_precision():
    for a in [np.full(10 ** 6, 0.1, np.float32), np.random.default_rng(0).random(10 ** 6, dtype=np.float32)]:
        want = (a.astype(np.float64) ** 2).sum()
        x = mf.tensor(a)
        for got in [mf.dot(x, x), x @ x, mf.inner(x, x), x.view(1, -1) @ x.view(-1, 1)]:
            assert abs(got.item() - want) / want < 1e-6, (got.item(), want)  # was 3.5e-3 off
        y = x.to("testdev")  # the test device runs the CPU's kernels over its own memory
        assert abs(mf.dot(y, y).item() - want) / want < 1e-6


# ---- special.erfcx, bessel_j0, bessel_j1 (torch.special's), against independent references

def _erfcx_reference(x):
    if x < 26:
        return math.exp(x * x) * math.erfc(x)
    frac = 0.0  # the continued fraction erfcx(x) = 1/sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / ...)))
    for n in range(200, 0, -1):
        frac = (n / 2) / (x + frac)
    return 1 / (math.sqrt(math.pi) * (x + frac))


def _bessel_j_reference(order, x):
    # the power series sum (-1)^m (x/2)^(2m + order) / (m! (m + order)!), in float64
    return math.fsum((-1) ** m * (x / 2) ** (2 * m + order) / (math.factorial(m) * math.factorial(m + order))
                     for m in range(60))


def test_erfcx_as_torch_s():
    xs = [-3.0, -1.0, 0.0, 0.5, 1.0, 5.0, 20.0, 25.5, 30.0, 100.0, 1e4]
    want = np.array([_erfcx_reference(x) for x in xs])
    got = mf.special.erfcx(mf.tensor(xs, dtype=mf.float64)).numpy()
    assert np.allclose(got, want, rtol=1e-13, atol=0), (got, want)
    got32 = mf.special.erfcx(mf.tensor(xs))
    assert got32.dtype == mf.float32 and np.allclose(got32.numpy(), want, rtol=1e-6)
    assert mf.special.erfcx(mf.tensor([0, 1])).dtype == mf.float32  # integers give float32
    assert np.isclose(mf.special.erfcx(mf.tensor([1.0], device="testdev")).item(), want[4], rtol=1e-6)
    x = mf.tensor([0.3, 2.0], dtype=mf.float64, requires_grad=True)
    mf.special.erfcx(x).sum().backward()
    e = np.array([_erfcx_reference(0.3), _erfcx_reference(2.0)])
    assert np.allclose(x.grad.numpy(), 2 * np.array([0.3, 2.0]) * e - 2 / math.sqrt(math.pi), rtol=1e-10)


def test_bessel_j0_j1_as_torch_s():
    xs = [0.0, 0.5, -1.5, 2.404825557695773, 3.8317059702075125, 7.0, -10.0]
    got0 = mf.special.bessel_j0(mf.tensor(xs, dtype=mf.float64)).numpy()
    got1 = mf.special.bessel_j1(mf.tensor(xs, dtype=mf.float64)).numpy()
    assert np.allclose(got0, [_bessel_j_reference(0, x) for x in xs], rtol=1e-10, atol=1e-12)
    assert np.allclose(got1, [_bessel_j_reference(1, x) for x in xs], rtol=1e-10, atol=1e-12)
    assert abs(got0[3]) < 1e-15 and abs(got1[4]) < 1e-15  # the first zeros
    assert np.isclose(mf.special.bessel_j0(mf.tensor(100.0, dtype=mf.float64)).item(), 0.019985850304223122,
                      rtol=1e-12)  # tabulated
    assert mf.special.bessel_j1(mf.tensor([1, 2])).dtype == mf.float32
    x = mf.tensor([0.0, 1.0, 4.0], dtype=mf.float64, requires_grad=True)
    (mf.special.bessel_j0(x) + mf.special.bessel_j1(x)).sum().backward()
    xv = [0.0, 1.0, 4.0]
    j0 = np.array([_bessel_j_reference(0, v) for v in xv])
    j1 = np.array([_bessel_j_reference(1, v) for v in xv])
    slope1 = np.where(np.array(xv) == 0, 0.5, j0 - j1 / np.where(np.array(xv) == 0, 1, xv))
    assert np.allclose(x.grad.numpy(), -j1 + slope1, rtol=1e-10, atol=1e-14)


# ---- distributions.RelaxedBernoulli and RelaxedOneHotCategorical (the Concrete families)

def test_relaxed_bernoulli_log_prob_and_rsample_as_torch_s():
    logits = np.array([-1.0, 0.3, 2.0])
    t = 0.7
    d = mf.distributions.RelaxedBernoulli(mf.tensor(t, dtype=mf.float64), logits=mf.tensor(logits, dtype=mf.float64))
    y = np.array([0.2, 0.5, 0.9])
    x = np.log(y) - np.log1p(-y)  # the logit of the value; its density, then the sigmoid's Jacobian
    diff = logits - t * x
    want = np.log(t) + diff - 2 * np.log1p(np.exp(diff)) - np.log(y * (1 - y))
    assert np.allclose(d.log_prob(mf.tensor(y, dtype=mf.float64)).numpy(), want, rtol=1e-12)
    assert np.allclose(d.probs.numpy(), 1 / (1 + np.exp(-logits))) and d.temperature.item() == t
    mf.manual_seed(0)
    p = mf.tensor([0.2, 0.9], requires_grad=True)
    s = mf.distributions.RelaxedBernoulli(mf.tensor(0.5), probs=p).rsample((1000,))
    assert tuple(s.shape) == (1000, 2) and bool(((s >= 0) & (s <= 1)).all())  # float32 may round to 1
    assert abs(s[:, 0].mean().item() - 0.2) < 0.1 and abs(s[:, 1].mean().item() - 0.9) < 0.1
    s.sum().backward()  # reparameterized: the samples carry a gradient to probs
    assert bool((p.grad > 0).all())


def test_relaxed_one_hot_categorical_log_prob_and_rsample_as_torch_s():
    logits = np.array([0.3, -1.0, 2.0])
    t, k = 1.5, 3
    d = mf.distributions.RelaxedOneHotCategorical(mf.tensor(t, dtype=mf.float64),
                                                  logits=mf.tensor(logits, dtype=mf.float64))
    y = np.array([0.2, 0.1, 0.7])
    norm = logits - np.log(np.exp(logits).sum())
    score = norm - t * np.log(y)
    want = (score - np.log(np.exp(score).sum())).sum() + math.lgamma(k) + (k - 1) * np.log(t) - np.log(y).sum()
    assert np.isclose(d.log_prob(mf.tensor(y, dtype=mf.float64)).item(), want, rtol=1e-12)
    s = d.rsample((4,))
    assert tuple(s.shape) == (4, 3) and np.allclose(s.sum(-1).numpy(), 1.0)


# ---- special.zeta of any real order (torch's), not only integers

def _hurwitz_reference(s, q, n=2000):
    # the first n terms plus the Euler-Maclaurin tail, in float64
    head = math.fsum((k + q) ** -s for k in range(n))
    w = n + q
    tail = w ** (1 - s) / (s - 1) + w ** -s / 2 + s * w ** (-s - 1) / 12
    return head + tail - s * (s + 1) * (s + 2) * w ** (-s - 3) / 720


def test_zeta_of_real_orders_as_torch_s():
    s = [2.5, 1.5, 4.2, 3.0, 10.0]
    q = [0.5, 2.0, 3.3, 1e-3, 1.0]
    got = mf.special.zeta(mf.tensor(s, dtype=mf.float64), mf.tensor(q, dtype=mf.float64)).numpy()
    assert np.allclose(got, [_hurwitz_reference(a, b) for a, b in zip(s, q)], rtol=1e-12)
    assert np.isclose(mf.special.zeta(mf.tensor(1.5, dtype=mf.float64), 1.0).item(), 2.612375348685488, rtol=1e-14)
    edge = mf.special.zeta(mf.tensor([1.0, 0.5, 2.0]), mf.tensor([1.0, 1.0, -2.0])).numpy()
    assert edge[0] == np.inf and np.isnan(edge[1]) and edge[2] == np.inf  # the pole, below 1, q a pole
    assert mf.special.zeta(mf.tensor([2, 3]), mf.tensor([1, 2])).dtype == mf.float32
    assert np.isclose(mf.special.zeta(mf.tensor([2.5], device="testdev"), 0.5).item(), _hurwitz_reference(2.5, 0.5),
                      rtol=1e-6)
    x = mf.tensor([2.5, 3.0], dtype=mf.float64)
    qq = mf.tensor([0.7, 1.5], dtype=mf.float64, requires_grad=True)
    mf.special.zeta(x, qq).sum().backward()
    want = [-a * _hurwitz_reference(a + 1, b) for a, b in [(2.5, 0.7), (3.0, 1.5)]]
    assert np.allclose(qq.grad.numpy(), want, rtol=1e-10)
    xs = mf.tensor([2.5], requires_grad=True)
    with pytest.raises(ValueError, match="no derivative with respect to the order"):
        mf.special.zeta(xs, 1.0).backward()


# ---- special.gammainc / gammaincc (torch's regularized incomplete gamma functions)

def _lower_gamma_reference(a, x):
    # P(a, x) = x^a e^-x sum_n x^n / gamma(a + n + 1), summed in float64 until the terms vanish
    return math.fsum(math.exp((a + n) * math.log(x) - x - math.lgamma(a + n + 1)) for n in range(400))


def test_gammainc_gammaincc_as_torch_s():
    a = [0.5, 1.0, 2.5, 10.0, 3.0, 0.1]
    x = [0.2, 1.0, 4.0, 9.0, 30.0, 2.0]
    want = np.array([_lower_gamma_reference(p, q) for p, q in zip(a, x)])
    at, xt = mf.tensor(a, dtype=mf.float64), mf.tensor(x, dtype=mf.float64)
    assert np.allclose(mf.special.gammainc(at, xt).numpy(), want, rtol=1e-12, atol=1e-15)
    assert np.allclose(mf.special.gammaincc(at, xt).numpy(), 1 - want, rtol=1e-10, atol=1e-14)
    assert np.isclose(mf.special.gammainc(mf.tensor(1.0), 2.0).item(), 1 - math.exp(-2.0), rtol=1e-6)  # P(1, x)
    assert np.isclose(mf.special.gammaincc(mf.tensor(0.5, dtype=mf.float64), 3.0).item(), math.erfc(math.sqrt(3.0)),
                      rtol=1e-13)  # Q(1/2, x) = erfc(sqrt(x))
    inf, nan = float("inf"), float("nan")
    edge = mf.special.gammainc(mf.tensor([-1.0, 0.0, 0.0, 2.0, 2.0, inf, inf, nan]),
                               mf.tensor([1.0, 0.0, 1.0, 0.0, inf, 1.0, inf, 1.0])).numpy()
    assert np.array_equal(edge, [nan, nan, 1.0, 0.0, 1.0, 0.0, nan, nan], equal_nan=True)
    assert mf.special.gammainc(mf.tensor([1, 2]), mf.tensor([1, 2])).dtype == mf.float32
    assert np.isclose(mf.special.gammaincc(mf.tensor([2.5], device="testdev"), 4.0).item(), 1 - want[2], rtol=1e-6)
    xs = mf.tensor([0.5, 3.0], dtype=mf.float64, requires_grad=True)
    (mf.special.gammainc(mf.tensor([2.0, 4.5], dtype=mf.float64), xs).sum()
     + 2 * mf.special.gammaincc(mf.tensor([2.0, 4.5], dtype=mf.float64), xs).sum()).backward()
    density = [math.exp((p - 1) * math.log(q) - q - math.lgamma(p)) for p, q in [(2.0, 0.5), (4.5, 3.0)]]
    assert np.allclose(xs.grad.numpy(), [-d for d in density], rtol=1e-12)  # P' - 2 P'
    with pytest.raises(ValueError, match="no derivative with respect to a"):
        mf.special.gammainc(mf.tensor([2.0], requires_grad=True), 1.0).backward()


# ---- a uint8 index is a mask, as torch's (deprecated there, with its warning)

def test_uint8_index_is_a_mask_with_torch_s_warning():
    a = np.arange(10.0).reshape(5, 2)
    keep = np.array([1, 0, 1, 0, 1], np.uint8)
    x = mf.tensor(a)
    with pytest.warns(UserWarning, match="indexing with dtype torch.uint8 is now deprecated"):
        got = x[mf.tensor(keep)]
    assert np.array_equal(got.numpy(), a[keep.astype(bool)])  # rows 0, 2, 4, not rows 1, 0, 1, 0, 1
    y = x.clone()
    with pytest.warns(UserWarning):
        y[mf.tensor(keep)] = -1.0
    b = a.copy()
    b[keep.astype(bool)] = -1.0
    assert np.array_equal(y.numpy(), b)


# ---- torch.save of scheduler states (a Counter of milestones) and defaultdicts to a .pt file

def test_save_to_a_pt_file_keeps_counters_and_defaultdicts(tmp_path):
    import collections
    m = nn.Linear(2, 2)
    opt = mf.optim.SGD(m.parameters(), lr=0.1)
    sched = mf.optim.lr_scheduler.MultiStepLR(opt, [2, 4], 0.3)
    state = {"m": m.state_dict(), "s": sched.state_dict(), "d": collections.defaultdict(list, {"a": [1, 2]})}
    mf.save(state, str(tmp_path / "ck.pt"))  # raised: a Counter rebuilt from its pairs counted them
    back = mf.load(str(tmp_path / "ck.pt"))
    assert dict(back["s"]["milestones"]) == {2: 1, 4: 1} and dict(back["d"]) == {"a": [1, 2]}
    assert np.array_equal(back["m"]["weight"].numpy(), m.weight.detach().numpy())
    sched2 = mf.optim.lr_scheduler.MultiStepLR(mf.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1), [9], 0.5)
    sched2.load_state_dict(back["s"])
    lrs = []
    for _ in range(5):
        sched2.optimizer.step()
        sched2.step()
        lrs.append(round(sched2.get_last_lr()[0], 6))
    assert lrs == [0.1, 0.03, 0.03, 0.009, 0.009]
