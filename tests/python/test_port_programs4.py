"""What ported programs met (issue 37, fourth programs round), against NumPy and torch's
documented rules: a list index that stands for a tuple of indices, addcmul/addcdiv's promotion."""
import numpy as np
import pytest

import meshflow as mf


# ---- a list of index sequences is a tuple of indices (torch's and old NumPy's rule)

def test_list_of_index_sequences_is_a_tuple():
    a = np.arange(12).reshape(3, 4)
    x = mf.tensor(a)
    rows, cols = [0, 1], [2, 2]
    assert np.array_equal(x[[rows, cols]].numpy(), a[rows, cols])
    assert np.array_equal(x[[mf.tensor(rows), mf.tensor(cols)]].numpy(), a[rows, cols])
    assert np.array_equal(x[[0, slice(None)]].numpy(), a[0, :])
    assert np.array_equal(x[[[0, 2]]].numpy(), a[[0, 2]])
    # a list of ints and an array stay one index along dim 0
    assert np.array_equal(x[[0, 2]].numpy(), a[[0, 2]])
    assert np.array_equal(x[np.array([[0, 1], [2, 2]])].numpy(), a[np.array([[0, 1], [2, 2]])])
    y = x.clone()
    y[[rows, cols]] = -1
    b = a.copy()
    b[rows, cols] = -1
    assert np.array_equal(y.numpy(), b)


# ---- addcmul / addcdiv promote all three operands before computing

def test_addcmul_addcdiv_compute_in_the_promoted_dtype():
    u = np.array([250, 3], np.uint8)
    f = np.array([0.5, 1.0], np.float32)
    want = f + 0.5 * u.astype(np.float32) * u.astype(np.float32)  # never wraps in uint8
    x = mf.tensor(f)
    assert np.allclose(mf.addcmul(x, mf.tensor(u), mf.tensor(u), value=0.5).numpy(), want)
    assert np.allclose(x.clone().addcmul_(mf.tensor(u), mf.tensor(u), value=0.5).numpy(), want)
    assert np.allclose(mf.addcdiv(x, mf.tensor(u), x, value=2).numpy(), f + 2 * u.astype(np.float32) / f)
    i = mf.tensor([1, 2])
    assert mf.addcmul(i, i, i, value=3).numpy().tolist() == [4, 14]
    with pytest.raises(RuntimeError, match="floating point"):
        mf.addcmul(i, i, i, value=0.5)
    with pytest.raises(RuntimeError, match="Integer division"):
        mf.addcdiv(x, i, i)


# ---- the pointwise losses broadcast a target of another shape, as torch's

def test_regression_losses_broadcast_the_target_with_a_warning():
    import meshflow.nn.functional as F
    pred = np.arange(4, dtype=np.float32).reshape(4, 1)
    target = np.array([0.5, 1.0, 4.0, -1.0], np.float32)
    d = pred - target  # [4, 4]: the classic [N, 1] against [N] mistake, as torch computes it
    x = mf.tensor(pred, requires_grad=True)
    with pytest.warns(UserWarning, match="different to the input size"):
        loss = F.mse_loss(x, mf.tensor(target))
    assert np.isclose(loss.item(), (d * d).mean())
    loss.backward()
    assert np.allclose(x.grad.numpy(), (2 * d).sum(1, keepdims=True) / d.size)
    with pytest.warns(UserWarning):
        assert np.isclose(F.l1_loss(mf.tensor(pred), mf.tensor(target), reduction="sum").item(), np.abs(d).sum())
    with pytest.warns(UserWarning):
        assert F.huber_loss(mf.tensor(pred), mf.tensor(target), reduction="none").shape == (4, 4)
    with pytest.warns(UserWarning):
        assert F.smooth_l1_loss(mf.tensor(pred), mf.tensor(target), reduction="none").shape == (4, 4)
    with pytest.raises(RuntimeError), pytest.warns(UserWarning):
        F.mse_loss(mf.ones(2, 3), mf.ones(4))
    with pytest.raises(ValueError):  # torch refuses these
        F.binary_cross_entropy_with_logits(mf.ones(2, 3), mf.ones(3))


# ---- attention: a query whose keys are all masked attends to nothing (0, as torch's)

def test_sdpa_fully_masked_rows_are_zero_with_finite_gradients():
    import meshflow.nn.functional as F
    rng = np.random.default_rng(4)
    qa, ka, va = rng.standard_normal((1, 2, 3, 4)), rng.standard_normal((1, 2, 5, 4)), rng.standard_normal((1, 2, 5, 4))
    allowed = np.ones((3, 5), bool)
    allowed[1] = False  # query 1 sees no key
    allowed[2, 3:] = False
    q = mf.tensor(qa, requires_grad=True)
    out = F.scaled_dot_product_attention(q, mf.tensor(ka), mf.tensor(va), attn_mask=mf.tensor(allowed))
    s = qa @ ka.transpose(0, 1, 3, 2) / 2.0
    s = np.where(allowed, s, -np.inf)
    w = np.exp(s - s.max(-1, keepdims=True, initial=-1e30))
    w = w / np.maximum(w.sum(-1, keepdims=True), 1e-30)  # the fully masked row: all 0
    assert np.allclose(out.numpy(), w @ va, atol=1e-6)
    assert np.all(out.numpy()[:, :, 1] == 0)
    out.sum().backward()
    g = q.grad.numpy()
    assert np.all(np.isfinite(g)) and np.all(g[:, :, 1] == 0)
    additive = mf.tensor(np.where(allowed, 0.0, -np.inf))  # a float mask of -inf, the same
    assert np.allclose(F.scaled_dot_product_attention(q, mf.tensor(ka), mf.tensor(va), attn_mask=additive).numpy(),
                       out.numpy())


# ---- gradients at kinks and ties, as torch's

def _grad(fn, values):
    x = mf.tensor(values, requires_grad=True)
    fn(x).sum().backward()
    return x.grad.numpy().tolist()


def test_clamp_and_its_activations_pass_no_gradient_at_number_bounds():
    import meshflow.nn.functional as F
    assert _grad(lambda x: x.clamp(0.5, 1.0), [0.5, 1.0, 0.7, 2.0]) == [0, 0, 1, 0]
    assert _grad(lambda x: x.clamp(min=0.5), [0.5, 1.0]) == [0, 1]
    assert _grad(lambda x: mf.clamp(x, max=0.5), [0.5, 0.0]) == [0, 1]
    assert _grad(F.relu6, [0.0, 6.0, 3.0]) == [0, 0, 1]
    assert _grad(F.hardtanh, [-1.0, 1.0, 0.0]) == [0, 0, 1]
    assert _grad(F.hardsigmoid, [-3.0, 3.0]) == [0, 0]
    assert _grad(F.hardswish, [-3.0, 3.0]) == [0, 1]
    # a tensor bound shares the gradient at a tie, as maximum / minimum (and torch's)
    assert _grad(lambda x: x.clamp(mf.tensor([0.5, 0.5]), mf.tensor([1.0, 1.0])), [0.5, 1.0]) == [0.5, 0.5]
    assert np.isnan(mf.tensor([float("nan")]).clamp(0, 1).item())
    assert mf.clamp(mf.tensor([1, 5, -3]), -2.5, 3.5).numpy().tolist() == [1.0, 3.5, -2.5]


def test_clamp_and_hardtanh_at_nan_infinities_and_crossed_bounds_as_torch():
    import meshflow.nn.functional as F
    nan, inf = float("nan"), float("inf")
    values = [-inf, -1.0, 0.0, 1.0, inf, nan]
    # clamp's gradient stops at NaN; hardtanh's (relu6's) passes there, as torch's.
    assert _grad(lambda x: x.clamp(-1.0, 1.0), values) == [0, 0, 1, 0, 0, 0]
    assert _grad(F.hardtanh, values) == [0, 0, 1, 0, 0, 1]
    assert _grad(F.relu6, [nan, 6.0, -1.0]) == [1, 0, 0]
    # One bound: the other side passes everything, infinities included.
    assert _grad(lambda x: x.clamp(min=-1.0), values) == [0, 0, 1, 1, 1, 0]
    assert _grad(lambda x: x.clamp(max=1.0), values) == [1, 1, 1, 0, 0, 0]
    x = mf.tensor(values)
    np.testing.assert_array_equal(x.clamp(-1.0, 1.0).numpy(), [-1, -1, 0, 1, 1, nan])
    # min > max gives max everywhere; a NaN bound NaN everywhere (and no gradient).
    np.testing.assert_array_equal(x.clamp(1.0, -1.0).numpy(), [-1, -1, -1, -1, -1, nan])
    assert np.isnan(x.clamp(min=nan).numpy()).all() and np.isnan(x.clamp(0.0, nan).numpy()).all()
    assert _grad(lambda x: x.clamp(min=nan), [0.0, 1.0]) == [0, 0]
    # Integers stay integers under integer bounds, exact beyond 2^53.
    big = mf.tensor([2 ** 60 + 1, -5, 7])
    assert big.clamp(-3, 2 ** 60).numpy().tolist() == [2 ** 60, -3, 7]
    assert mf.tensor([3, 200], dtype=mf.uint8).clamp(max=100).numpy().tolist() == [3, 100]
    # A bound past the dtype's range changes nothing on its side and is refused past the other, as torch's.
    assert mf.tensor([3, 200], dtype=mf.uint8).clamp(max=300).numpy().tolist() == [3, 200]
    with pytest.raises(ValueError, match=r"\[clamp\] min 300 is outside the representable range of uint8"):
        mf.tensor([3, 200], dtype=mf.uint8).clamp(min=300)
    with pytest.raises(ValueError, match="min_val cannot be greater than max_val"):
        F.hardtanh(x, 2.0, 1.0)


def test_exponential_units_have_their_one_sided_gradient_at_zero():
    import meshflow.nn.functional as F
    assert _grad(F.elu, [0.0]) == [1.0]
    assert np.allclose(_grad(lambda x: F.elu(x, alpha=2.0), [0.0]), [2.0])
    assert _grad(F.celu, [0.0]) == [1.0]
    assert np.allclose(_grad(F.selu, [0.0]), [1.0507009873554805 * 1.6732632423543772])
    assert np.isfinite(_grad(F.elu, [1e4])).all()


def test_max_min_along_a_dim_send_the_gradient_to_the_returned_index():
    assert _grad(lambda x: x.max(0)[0], [[1.0, 1.0], [1.0, 0.0]]) == [[1, 1], [0, 0]]
    assert _grad(lambda x: x.min(1)[0], [[1.0, 1.0], [1.0, 0.0]]) == [[1, 0], [0, 1]]
    assert _grad(lambda x: mf.max(x, 1, keepdim=True).values, [[2.0, 2.0]]) == [[1, 0]]
    assert _grad(lambda x: x.amax(1), [[1.0, 1.0]]) == [[0.5, 0.5]]  # amax shares, as torch's
    assert _grad(lambda x: x.cummax(0)[0], [1.0, 1.0, 0.0]) == [1, 2, 0]
    assert _grad(lambda x: x.cummin(0)[0], [0.0, 0.0, 1.0]) == [1, 2, 0]
    v, i = mf.tensor([[3.0, 1.0, 3.0]]).max(1)
    assert v.numpy().tolist() == [3.0] and i.numpy().tolist() == [0]


# ---- cat's legacy empty tensor, repeat_interleave's one-argument form, scatter_(reduce=)

def test_cat_leaves_out_1d_empty_tensors_beside_other_ranks():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = mf.tensor([])
    for row in a:
        out = mf.cat([out, mf.tensor(row)])  # 1-d throughout: a plain cat
    assert np.array_equal(out.numpy(), a.reshape(-1))
    assert np.array_equal(mf.cat([mf.tensor([]), mf.tensor(a)]).numpy(), a)
    assert np.array_equal(mf.cat([mf.tensor(a), mf.tensor([]), mf.tensor(a)], 1).numpy(), np.concatenate([a, a], 1))
    with pytest.raises(ValueError):
        mf.cat([mf.zeros(2, 0), mf.tensor(a)])  # only the 1-d [0] shape is left out


def test_repeat_interleave_of_counts_and_in_place_scatter_reduce():
    assert mf.repeat_interleave(mf.tensor([2, 0, 1])).numpy().tolist() == [0, 0, 2]
    assert mf.tensor([1, 2]).repeat_interleave(2, output_size=4).numpy().tolist() == [1, 1, 2, 2]
    index = mf.tensor([[0, 0], [2, 2], [3, 1]])
    added = mf.zeros(3, 4).scatter_(1, index, mf.ones(3, 2), reduce="add")
    assert added.numpy().tolist() == [[2, 0, 0, 0], [0, 0, 2, 0], [0, 1, 0, 1]]
    times = mf.full((3, 4), 2.0)
    times.scatter_(1, index, 3.0, reduce="multiply")
    assert times.numpy().tolist() == [[18, 2, 2, 2], [2, 2, 18, 2], [2, 6, 2, 6]]


# ---- logaddexp of equal infinities (log-space recursions start from -inf)

def test_logaddexp_of_equal_infinities():
    inf = float("inf")
    a, b = mf.tensor([-inf, inf, -inf, 1.0]), mf.tensor([-inf, inf, 2.0, 1.0])
    assert mf.logaddexp(a, b).numpy().tolist() == [-inf, inf, 2.0, pytest.approx(1 + np.log(2))]
    assert mf.logaddexp2(a, b).numpy().tolist() == [-inf, inf, 2.0, 2.0]
    x = mf.tensor([1.0, 2.0], requires_grad=True)
    mf.logaddexp(x, mf.tensor([1.0, 0.0])).sum().backward()
    assert np.allclose(x.grad.numpy(), [0.5, 1 / (1 + np.exp(-2.0))])


# ---- binary_cross_entropy at saturated probabilities: torch's finite gradient, never NaN

def test_bce_gradient_at_probabilities_0_and_1():
    import meshflow.nn.functional as F
    p = mf.tensor([0.0, 1.0, 1.0, 0.5, 0.2], requires_grad=True)
    y = mf.tensor([0.0, 1.0, 0.0, 1.0, 0.0])
    loss = F.binary_cross_entropy(p, y)
    pa, ya = np.array([0.0, 1.0, 1.0, 0.5, 0.2]), y.numpy()
    with np.errstate(divide="ignore"):
        want = -(ya * np.maximum(np.log(pa), -100) + (1 - ya) * np.maximum(np.log(1 - pa), -100)).mean()
    assert np.isclose(loss.item(), want)
    loss.backward()
    g = (pa - ya) / np.maximum(pa * (1 - pa), 1e-12) / 5
    assert np.allclose(p.grad.numpy(), g, rtol=1e-5)
    # a discriminator whose sigmoid saturates: the gradient is 0, as torch's, not NaN
    z = mf.tensor([40.0, -40.0], requires_grad=True)
    F.binary_cross_entropy(mf.sigmoid(z), mf.tensor([1.0, 0.0])).backward()
    assert np.all(np.isfinite(z.grad.numpy()))
    # inside (0, 1) it differentiates twice
    q = mf.tensor([0.3], requires_grad=True)
    (dq,) = mf.autograd.grad(F.binary_cross_entropy(q, mf.tensor([1.0])), q, create_graph=True)
    (ddq,) = mf.autograd.grad(dq, q)
    assert np.isclose(ddq.item(), 1 / 0.09)


def test_median_of_all_shares_the_gradient_among_ties_and_rrelu_eval_slope_at_zero():
    import meshflow.nn.functional as F
    assert np.allclose(_grad(lambda x: x.median(), [1.0, 1.0, 1.0, 2.0]), [1 / 3, 1 / 3, 1 / 3, 0])
    assert np.allclose(_grad(lambda x: x.nanmedian(), [1.0, float("nan"), 1.0, 0.0]), [0.5, 0, 0.5, 0])
    assert np.allclose(_grad(lambda x: x.median(), [0.1, 0.1, 0.1]), [1 / 3] * 3)
    assert mf.tensor([0.1, 0.1, 0.1], requires_grad=True).median().item() == np.float32(0.1)  # exact
    assert _grad(lambda x: x.median(0).values, [1.0, 1.0, 1.0]).count(1.0) == 1  # along a dim: its index
    assert np.allclose(_grad(lambda x: F.rrelu(x, training=False), [0.0, 1.0]), [(1 / 8 + 1 / 3) / 2, 1])


def test_unary_plus():
    x = mf.tensor([1.0, -2.0])
    assert (+x).numpy().tolist() == [1.0, -2.0]
    with pytest.raises(TypeError):
        +mf.tensor([True])


def test_version_compares_as_torch_s():
    assert mf.__version__.endswith("+meshflow") and mf.version.__version__ is mf.__version__
    assert mf.__version__ >= "2.0" and mf.__version__ >= (2, 0) and not mf.__version__ < "1.13"
    assert mf.__version__ < "2.10"  # by release numbers, not characters
    assert mf.version.cuda is None


# ---- more of torch.distributions: modes, families and transformed distributions

def test_tanh_squashed_normal_as_sac_uses_it():
    D = mf.distributions
    mu, std = np.array([0.1, -0.2]), np.array([1.0, 0.5])
    loc = mf.tensor(mu, requires_grad=True)
    d = D.TransformedDistribution(D.Normal(loc, mf.tensor(std)), [D.transforms.TanhTransform(cache_size=1)])
    a = d.rsample()
    lp = d.log_prob(a)  # the cached pre-image: no atanh of a rounded 1.0
    x = np.array([0.4, 0.1])
    y = np.tanh(x)
    want = (-((x - mu) ** 2) / (2 * std ** 2) - np.log(std) - 0.5 * np.log(2 * np.pi) - np.log(1 - y ** 2))
    assert np.allclose(d.log_prob(mf.tensor(y)).detach().numpy(), want, atol=1e-5)
    assert lp.shape == (2,) and a.shape == (2,)
    lp.sum().backward()
    assert loc.grad is not None
    e = D.TransformedDistribution(D.Normal(mf.tensor(0.0), mf.tensor(1.0)),
                                  [D.transforms.AffineTransform(1.0, 2.0), D.transforms.ExpTransform()])
    v = 3.0  # log v = 1 + 2 z
    z = (np.log(v) - 1) / 2
    assert np.isclose(e.log_prob(mf.tensor(v)).item(), -z * z / 2 - 0.5 * np.log(2 * np.pi) - np.log(2) - np.log(v))


def test_distribution_modes_and_more_families():
    D = mf.distributions
    assert D.Categorical(logits=mf.tensor([[1.0, 3.0, 0.0]])).mode.numpy().tolist() == [1]
    assert np.isnan(D.Categorical(logits=mf.tensor([1.0, 3.0])).mean.item())
    assert D.Bernoulli(mf.tensor([0.2, 0.7])).mode.numpy().tolist() == [0.0, 1.0]
    assert D.OneHotCategorical(logits=mf.tensor([1.0, 3.0, 0.0])).mode.numpy().tolist() == [0, 1, 0]
    assert np.isclose(D.Cauchy(mf.tensor(0.5), mf.tensor(2.0)).log_prob(mf.tensor(1.0)).item(),
                      -np.log(np.pi * 2.0 * (1 + 0.25 ** 2)))
    assert np.isclose(D.Geometric(mf.tensor(0.3)).log_prob(mf.tensor(2.0)).item(), 2 * np.log(0.7) + np.log(0.3))
    from math import comb
    assert np.isclose(D.Binomial(5, mf.tensor(0.3)).log_prob(mf.tensor(2.0)).item(),
                      np.log(comb(5, 2) * 0.3 ** 2 * 0.7 ** 3), atol=1e-5)
    assert np.isclose(D.StudentT(mf.tensor(3.0)).log_prob(mf.tensor(0.0)).item(), np.log(2 / (np.pi * np.sqrt(3))),
                      atol=1e-5)


def test_range_default_tensor_type_angle_and_functional_inplace_spellings():
    assert mf.range(0, 4).numpy().tolist() == [0, 1, 2, 3, 4] and mf.range(0, 4).dtype == mf.float32
    assert mf.range(1, 2, 0.5).numpy().tolist() == [1.0, 1.5, 2.0]
    assert np.allclose(mf.angle(mf.tensor([-1.0, 0.0, 2.0])).numpy(), [np.pi, 0, 0])
    assert np.isnan(mf.tensor([float("nan")]).angle().item())
    x = mf.tensor([0.0, 1.0])
    assert mf.sigmoid_(x) is x and np.allclose(x.numpy(), 1 / (1 + np.exp(-np.array([0.0, 1.0]))))
    try:
        mf.set_default_tensor_type(mf.DoubleTensor)
        assert mf.tensor([1.5]).dtype == mf.float64
        mf.set_default_tensor_type("torch.FloatTensor")
        assert mf.tensor([1.5]).dtype == mf.float32
        with pytest.raises(TypeError):
            mf.set_default_tensor_type(mf.LongTensor)
    finally:
        mf.set_default_dtype(mf.float32)


def test_instance_norm_3d():
    x = np.random.default_rng(5).standard_normal((2, 3, 2, 3, 4)).astype(np.float32)
    y = mf.nn.InstanceNorm3d(3)(mf.tensor(x)).numpy()
    mean, var = x.mean((2, 3, 4), keepdims=True), x.var((2, 3, 4), keepdims=True)
    assert np.allclose(y, (x - mean) / np.sqrt(var + 1e-5), atol=1e-5)


def test_pad_of_bool_and_small_ints_and_tile_of_ints():
    import meshflow.nn.functional as F
    for dtype in (mf.uint8, mf.int8, mf.int16):
        out = F.pad(mf.tensor([[1, 0, 3]], dtype=dtype), (1, 2), value=7)
        assert out.dtype == dtype and out.numpy().tolist() == [[7, 1, 0, 3, 7, 7]]
    mask = F.pad(mf.tensor([[True, False]]), (0, 1, 1, 0))
    assert mask.dtype == mf.bool and mask.numpy().tolist() == [[False, False, False], [True, False, False]]
    t = mf.tensor([[1, 2]])
    assert t.tile(2).numpy().tolist() == [[1, 2, 1, 2]] and t.tile(2, 1).numpy().tolist() == [[1, 2], [1, 2]]
    assert mf.tile(t, (2,)).numpy().tolist() == [[1, 2, 1, 2]]


def test_optimizers_pickle_and_deepcopy_with_their_state():
    import copy
    import io
    model = mf.nn.Linear(2, 2)
    opt = mf.optim.Adam(model.parameters(), lr=0.1, betas=(0.8, 0.9))
    sched = mf.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)
    model(mf.ones(1, 2)).sum().backward()
    opt.step()
    sched.step()
    both = copy.deepcopy({"model": model, "opt": opt})
    again = both["opt"]
    assert type(again) is mf.optim.Adam and again.param_groups[0]["params"][0] is both["model"].weight
    assert again.param_groups[0]["lr"] == opt.param_groups[0]["lr"] and again.param_groups[0]["initial_lr"] == 0.1
    assert np.allclose(again.state_dict()["state"][0]["exp_avg"].numpy(), opt.state_dict()["state"][0]["exp_avg"].numpy())
    buffer = io.BytesIO()
    mf.save({"opt": mf.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)}, buffer)
    buffer.seek(0)
    loaded = mf.load(buffer, weights_only=False)["opt"]
    assert type(loaded) is mf.optim.SGD and loaded.param_groups[0]["momentum"] == 0.9


def test_softplus_family_gradient_at_zero():
    import meshflow.nn.functional as F
    assert _grad(F.softplus, [0.0, 30.0]) == [0.5, 1.0]
    assert np.allclose(_grad(lambda x: F.softplus(x, beta=2.0), [0.0]), [0.5])
    assert _grad(F.logsigmoid, [0.0]) == [0.5]
    assert np.allclose(_grad(F.mish, [0.0]), [np.tanh(np.log(2.0))])
    logits = mf.tensor([0.0], requires_grad=True)
    mf.distributions.Bernoulli(logits=logits).log_prob(mf.tensor([1.0])).sum().backward()
    assert np.allclose(logits.grad.numpy(), [0.5])  # 1 - sigmoid(0)
    assert np.isfinite(F.softplus(mf.tensor([-1e4, 1e4])).numpy()).all()


def test_mode_and_embedding_bag_max_send_the_gradient_to_one_element():
    import meshflow.nn.functional as F
    assert _grad(lambda x: x.mode(1)[0], [[1.0, 1.0, 0.0, 2.0]]) == [[0, 1, 0, 0]]  # the returned (last) index
    weight = mf.tensor([[1.0, 0.0], [1.0, 2.0]], requires_grad=True)
    F.embedding_bag(mf.tensor([0, 1]), weight, mf.tensor([0]), mode="max").sum().backward()
    assert weight.grad.numpy().tolist() == [[1, 0], [0, 1]]  # the tie in column 0: the bag's first row


def test_xlogy_gradient_in_x_at_zero_is_log_y():
    x = mf.tensor([0.0, 0.0, 1.0], requires_grad=True)
    y = mf.tensor([2.0, 0.0, 3.0], requires_grad=True)
    out = mf.xlogy(x, y)
    assert out.detach().numpy().tolist() == [0.0, 0.0, pytest.approx(np.log(3.0))]
    out.sum().backward()
    assert np.allclose(x.grad.numpy(), [np.log(2.0), 0.0, np.log(3.0)])
    # y's is torch's x / y everywhere: 0 / 0 at the second
    np.testing.assert_allclose(y.grad.numpy(), [0.0, np.nan, 1 / 3], rtol=1e-6)


def test_atan2_gradient_at_the_origin_is_zero():
    y = mf.tensor([0.0, 1.0], requires_grad=True)
    x = mf.tensor([0.0, 1.0], requires_grad=True)
    mf.atan2(y, x).sum().backward()
    assert np.allclose(y.grad.numpy(), [0.0, 0.5]) and np.allclose(x.grad.numpy(), [0.0, -0.5])


def test_float_sums_across_many_rows_keep_their_precision():
    # a mean over a batch dim of 10^5 rows (dataset statistics): a cascade, not a running sum
    a = np.full((100000, 3), 0.1, np.float32) + np.arange(3, dtype=np.float32)
    want = a.astype(np.float64).sum(0)
    got = mf.tensor(a).sum(0).numpy()
    assert np.allclose(got, want, rtol=2e-6), (got, want)
    assert np.allclose(mf.tensor(a).mean(0).numpy(), want / a.shape[0], rtol=2e-6)
    assert mf.tensor(a[:, :1].astype(np.int64) + 1).sum(0).item() == 100000  # integer sums unchanged


def test_float_sums_over_many_rows_of_reduced_inner_dims_keep_their_precision():
    # the per-channel mean over (N, H, W) of a batch of images, short and long rows
    for shape in [(256, 4, 7, 7), (64, 4, 32, 32)]:
        a = np.full(shape, 0.1, np.float32) + np.arange(4, dtype=np.float32).reshape(1, 4, 1, 1) * 0.01
        want = a.astype(np.float64).mean((0, 2, 3))
        assert np.allclose(mf.tensor(a).mean((0, 2, 3)).numpy(), want, rtol=1e-5)  # was 2e-5 off


def test_floor_division_of_tensors_that_require_grad_requires_grad_with_zero_gradient():
    a = mf.tensor([1.5, -2.5], requires_grad=True)
    b = mf.tensor([2.0, 3.0], requires_grad=True)
    q = mf.div(a, b, rounding_mode="floor")
    assert q.requires_grad and (a // 2).requires_grad
    (q.sum() + (a % b).sum()).backward()
    assert a.grad.numpy().tolist() == [1.0, 1.0] and b.grad.numpy().tolist() == [0.0, 1.0]


def test_clamp_and_hardtanh_on_the_test_device_as_on_the_cpu():
    import meshflow.nn.functional as F
    values = [-float("inf"), -1.0, -0.3, 0.0, 0.5, 1.0, 6.0, float("nan")]
    for fn in (lambda x: x.clamp(-1.0, 1.0), lambda x: x.clamp(max=0.5), F.hardtanh, F.relu6):
        results = []
        for device in ("cpu", "testdev"):
            x = mf.tensor(values, device=device, requires_grad=True)
            y = fn(x)
            y.sum().backward()
            assert y.device == x.grad.device == x.device
            results.append((y.to("cpu").numpy(), x.grad.to("cpu").numpy()))
        for on_cpu, on_dev in zip(*results):
            np.testing.assert_array_equal(on_dev, on_cpu)
