"""Gradients at the edges of their ops' domains (NaN inputs, ties, values outside the domain,
inputs that are not what the op reads), as torch 2's are (its values written out here; no
torch in CI). Each case was found by tests/python/fuzz/grad_fuzz.py, which compares backward
results of every differentiable name meshflow shares with torch."""
import math

import numpy as np
import pytest

import meshflow as mf

nan, inf = float("nan"), float("inf")


def grad_of(f, *values, weights=None):
    xs = [mf.tensor(v, dtype=mf.float64, requires_grad=True) for v in values]
    out = f(*xs)
    (out if weights is None else out * mf.tensor(weights, dtype=mf.float64)).sum().backward()
    return [x.grad.numpy() for x in xs]


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_of_all_gives_a_nan_result_gradient_to_the_nans(name):
    # torch's evenly_distribute_backward: among the NaNs when the result is NaN (amax's is NaN)
    g, = grad_of(lambda x: getattr(x, name)() * 5, [1.0, nan, 3.0, nan])
    np.testing.assert_array_equal(g, [0.0, 2.5, 0.0, 2.5])
    g, = grad_of(lambda x: getattr(x, name)() * 4, [1.0, 3.0, 3.0, -1.0])
    np.testing.assert_array_equal(g, [0.0, 2.0, 2.0, 0.0] if name == "max" else [0.0, 0.0, 0.0, 4.0])
    g, = grad_of(lambda x: x.amax(), [1.0, nan, 3.0])
    assert np.isnan(g).all()  # amax's own gradient stays torch's: NaN everywhere


def test_maximum_and_minimum_give_both_inputs_the_gradient_at_a_nan():
    a, b = [nan, 1.0, 2.0, 2.0, 0.0], [1.0, nan, 2.0, 1.0, 3.0]
    w = [1.0, 2.0, 4.0, 8.0, 16.0]
    ga, gb = grad_of(mf.maximum, a, b, weights=w)
    np.testing.assert_array_equal(ga, [1.0, 2.0, 2.0, 8.0, 0.0])
    np.testing.assert_array_equal(gb, [1.0, 2.0, 2.0, 0.0, 16.0])
    ga, gb = grad_of(mf.minimum, a, b, weights=w)
    np.testing.assert_array_equal(ga, [1.0, 2.0, 2.0, 0.0, 16.0])
    np.testing.assert_array_equal(gb, [1.0, 2.0, 2.0, 8.0, 0.0])
    ga, gb = grad_of(lambda x, y: mf.max(x, y), [nan, 1.0], [0.0, 2.0])
    np.testing.assert_array_equal(ga, [1.0, 0.0])
    np.testing.assert_array_equal(gb, [1.0, 1.0])


def test_logit_gradient_is_nan_outside_its_domain_and_zero_outside_eps():
    x = [-0.5, 0.0, 0.25, 1.0, 1.5]
    g, = grad_of(mf.logit, x)
    np.testing.assert_allclose(g, [nan, inf, 16 / 3, inf, nan])
    g, = grad_of(lambda t: mf.logit(t, 0.1), x)
    np.testing.assert_allclose(g, [0.0, 0.0, 16 / 3, 0.0, 0.0])
    g, = grad_of(mf.special.logit, [2.0])
    assert np.isnan(g).all()
    x = mf.tensor([0.25, 0.5], dtype=mf.float64, requires_grad=True)
    first, = mf.autograd.grad(mf.logit(x).sum(), x, create_graph=True)
    first.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [-14.2222222222, 0.0], atol=1e-9)


L3 = [[2.0, 0.5, -1.0], [0.3, 1.5, 0.7], [-0.4, 0.2, 1.2]]


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse_gradient_is_torchs_formula_over_the_whole_input(upper):
    # the value reads one triangle; torch's gradient -(A^-1 (G + G^T) A^-1) L multiplies by all of L
    L = mf.tensor(L3, dtype=mf.float64, requires_grad=True)
    y = mf.cholesky_inverse(L, upper=upper)
    (y * mf.arange(9.0, dtype=mf.float64).reshape(3, 3)).sum().backward()
    value = [[0.2936111111, -0.0870370370, 0.1527777778], [-0.0870370370, 0.4567901235, -0.0925925926],
             [0.1527777778, -0.0925925926, 0.6944444444]]
    grad = [[-0.4370370370, -1.7676803841, -2.8421554641], [-0.5432098765, -1.6710653864, -2.4972595641],
            [-2.5925925926, -6.2120713306, -8.4479195245]]
    if upper:
        value = [[0.5418595679, -0.3109567901, 0.4282407407], [-0.3109567901, 0.5956790123, -0.3240740741],
                 [0.4282407407, -0.3240740741, 0.6944444444]]
        grad = [[-1.0910493827, 0.1049382716, -2.1296296296], [-3.7117551869, 0.2771390604, -5.6242926955],
                [-4.2646390604, 0.3092764060, -6.2764917695]]
    np.testing.assert_allclose(y.detach().numpy(), value, atol=1e-9)
    np.testing.assert_allclose(L.grad.numpy(), grad, atol=1e-9)


@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_running_extremes_carry_a_nan_with_the_index_of_the_last_nan(name):
    x = mf.tensor([1.0, nan, 3.0, nan, 0.0, inf], dtype=mf.float64)
    values, indices = getattr(x, name)(0)
    np.testing.assert_array_equal(values.numpy(), [1.0, nan, nan, nan, nan, nan])
    np.testing.assert_array_equal(indices.numpy(), [0, 1, 1, 3, 3, 3])
    x = mf.tensor([inf, 2.0, inf, nan, 1.0, nan], dtype=mf.float64, requires_grad=True)
    values, indices = getattr(x, name)(0)
    np.testing.assert_array_equal(indices.numpy(), [0, 0, 2, 3, 3, 5] if name == "cummax" else [0, 1, 1, 3, 3, 5])
    values.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2, 0, 1, 2, 0, 1] if name == "cummax" else [1, 2, 0, 2, 0, 1])


def test_median_of_all_keeps_its_value_beside_infinities_and_nans():
    # the gradient was carried by arithmetic on every element: an inf or NaN elsewhere made the value NaN
    x = mf.tensor([1.0, nan, 1.0, 0.0], dtype=mf.float64, requires_grad=True)
    y = x.nanmedian()
    y.backward()
    assert y.item() == 1.0
    np.testing.assert_array_equal(x.grad.numpy(), [0.5, 0.0, 0.5, 0.0])
    x = mf.tensor([inf, 1.0, inf, 2.0], dtype=mf.float64, requires_grad=True)
    y = x.median()
    (y * 3).backward()
    assert y.item() == 2.0
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, 0.0, 3.0])


def test_xlogy_and_xlog1py_other_gradient_is_x_over_y_everywhere():
    g = grad_of(mf.xlogy, [1.0, 0.0, 2.0, 1.0, 0.0], [0.0, 0.0, inf, -inf, 3.0])
    np.testing.assert_allclose(g[0], [-inf, 0.0, inf, nan, math.log(3)])
    np.testing.assert_array_equal(g[1], [inf, nan, 0.0, -0.0, 0.0])
    g = grad_of(mf.special.xlog1py, [1.0, 0.0, 2.0, 1.0, 0.0], [-1.0, -1.0, inf, -2.0, 3.0])
    np.testing.assert_allclose(g[0], [-inf, 0.0, inf, nan, math.log(4)])
    np.testing.assert_array_equal(g[1], [inf, nan, 0.0, -1.0, 0.0])
    x = mf.tensor([0.5, 2.0], dtype=mf.float64, requires_grad=True)
    y = mf.tensor([0.25, 3.0], dtype=mf.float64, requires_grad=True)
    gx, gy = mf.autograd.grad(mf.xlogy(x, y).sum(), (x, y), create_graph=True)
    (gx.sum() + 2 * gy.sum()).backward()
    np.testing.assert_allclose(x.grad.numpy(), [8.0, 2 / 3])
    np.testing.assert_allclose(y.grad.numpy(), [-12.0, -1 / 9])


def test_kl_div_and_entr_gradients_where_the_log_is_not_finite():
    q = mf.tensor([-1.0, -2.0, -0.5], dtype=mf.float64, requires_grad=True)
    p = mf.tensor([0.0, 0.2, 0.8], dtype=mf.float64, requires_grad=True)
    mf.nn.functional.kl_div(q, p, reduction="sum").backward()
    np.testing.assert_allclose(q.grad.numpy(), [0.0, -0.2, -0.8])
    np.testing.assert_allclose(p.grad.numpy(), [nan, 1.3906, 1.2769], atol=1e-4)
    g, = grad_of(mf.special.entr, [-1.0, 0.0, 0.5, 2.0])
    np.testing.assert_allclose(g, [nan, inf, -0.3069, -1.6931], atol=1e-4)


def test_two_norm_second_derivative_at_a_zero_element():
    x = mf.tensor([[-1.0, 0.0, 1.0, 1.0]], dtype=mf.float64, requires_grad=True)
    g, = mf.autograd.grad(x.norm(), x, create_graph=True)
    (g * mf.tensor([[1.0, 2.0, 3.0, 4.0]], dtype=mf.float64)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[1.7320508, 1.1547005, 0.5773503, 1.1547005]], atol=1e-6)


def test_log_prob_and_cdf_outside_the_support_raise_as_torchs():
    D = mf.distributions
    with pytest.raises(ValueError, match="within the support"):
        D.Exponential(mf.tensor([0.5, 2.0])).log_prob(mf.tensor([-1.0, 1.0]))
    with pytest.raises(ValueError, match="within the support"):
        D.Bernoulli(probs=mf.tensor([0.3])).log_prob(mf.tensor([2.0]))
    with pytest.raises(ValueError, match="within the support"):
        D.Uniform(mf.tensor(0.0), mf.tensor(1.0)).cdf(mf.tensor(1.5))
    with pytest.raises(ValueError, match="broadcastable"):
        D.Normal(mf.zeros(3), mf.ones(3)).log_prob(mf.zeros(2))
    with pytest.raises(ValueError, match="must be a Tensor"):
        D.Normal(mf.zeros(3), mf.ones(3)).log_prob(0.5)
    # off for one family, or for all: the number torch gives then
    out = D.Exponential(mf.tensor(2.0), validate_args=False).log_prob(mf.tensor(-1.0))
    np.testing.assert_allclose(out.item(), math.log(2.0) + 2.0)
    D.Distribution.set_default_validate_args(False)
    try:
        np.testing.assert_allclose(D.Exponential(mf.tensor(2.0)).log_prob(mf.tensor(-1.0)).item(), math.log(2.0) + 2.0)
    finally:
        D.Distribution.set_default_validate_args(True)
    np.testing.assert_allclose(D.Normal(0.0, 1.0).log_prob(mf.tensor([0.0])).numpy(), [-0.9189385], rtol=1e-6)


def test_empty_diagonals_as_torchs():
    x = mf.zeros(0, 3, requires_grad=True)
    y = mf.diagflat(x, 1)  # |offset| x |offset| zeros
    assert y.shape == (1, 1) and y.tolist() == [[0.0]]
    y.sum().backward()
    assert x.grad.shape == (0, 3)
    assert mf.diag_embed(mf.zeros(2, 0), -2).shape == (2, 2, 2)
    assert mf.diagonal(mf.zeros(0, 3), 1).shape == (0,)
    assert mf.zeros(0, 3).diagonal(1).shape == (0,)
    assert mf.zeros(2, 0, 3).diagonal(2, 1, 2).shape == (2, 0)


def test_kaiming_initializers_leave_a_tensor_without_elements_alone():
    init = mf.nn.init
    for shape in [(2, 0), (0, 3, 2)]:
        for f in (init.kaiming_uniform_, init.kaiming_normal_):
            t = mf.empty(shape)
            with pytest.warns(UserWarning, match="zero-element"):
                assert f(t, mode="bogus", nonlinearity="bogus") is t  # torch's returns before reading them
    with pytest.raises(ValueError, match="not a valid number"):
        init.calculate_gain("leaky_relu", True)
    assert init.calculate_gain("leaky_relu", 1) == 1.0


def test_prod_second_derivative_with_one_or_two_zeros():
    x = mf.tensor([[0.0, 2.0, 3.0, 4.0], [0.0, 0.0, 2.0, 5.0], [1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 2.0]],
                  dtype=mf.float64, requires_grad=True)
    g, = mf.autograd.grad((x.prod(1) * mf.tensor([1.0, 2.0, 3.0, 4.0], dtype=mf.float64)).sum(), x, create_graph=True)
    np.testing.assert_array_equal(g.detach().numpy(), [[24, 0, 0, 0], [0, 0, 0, 0], [72, 36, 24, 18], [0, 0, 0, 0]])
    (g * mf.arange(1.0, 17.0, dtype=mf.float64).reshape(4, 4)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[72, 12, 8, 6], [120, 100, 0, 0], [840, 564, 408, 318], [0, 0, 0, 0]])
    y = mf.tensor([0.0, 2.0, 3.0, 0.5], dtype=mf.float64, requires_grad=True)
    g, = mf.autograd.grad(y.prod() * 2, y, create_graph=True)
    (g * mf.tensor([1.0, 2.0, 3.0, 4.0], dtype=mf.float64)).sum().backward()
    np.testing.assert_array_equal(g.detach().numpy(), [6, 0, 0, 0])
    np.testing.assert_array_equal(y.grad.numpy(), [60, 3, 2, 12])


def test_autograd_functional_zeros_and_strict_as_torchs():
    AF = mf.autograd.functional
    x, y = mf.ones(2, dtype=mf.float64), mf.ones(2, dtype=mf.float64)
    # a constant output's jacobian and a linear function's hessian are zeros (raised before)
    assert AF.jacobian(lambda a: mf.ones(2), x).tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert AF.hessian(lambda a: (a * 2).sum(), x).tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert AF.hvp(lambda a: (a * 2).sum(), x, x)[1].tolist() == [0.0, 0.0]
    out, h = AF.hvp(lambda a: (a * a).sum(), mf.ones(1, dtype=mf.float64))  # v may be None for one element
    assert h.tolist() == [2.0]
    ga, gb = AF.vjp(lambda a, b: (a * 2).sum(), (x, y))[1]
    assert ga.tolist() == [2.0, 2.0] and gb.tolist() == [0.0, 0.0]
    raises = [
        (lambda: AF.jacobian(lambda a, b: a * 2, (x, y), strict=True), "Output 0 of the user-provided function is independent of input 1"),
        (lambda: AF.jacobian(lambda a: mf.ones(2), x, strict=True), "Output 0 of the user-provided function does not require gradients"),
        (lambda: AF.jacobian(lambda a: a * 2, x, strict=True, vectorize=True), "`strict=True` and `vectorized=True`"),
        (lambda: AF.vjp(lambda a, b: (a * 2).sum(), (x, y), strict=True), "independent of input 1"),
        (lambda: AF.vjp(lambda a: (a * 2).sum(), x, strict=True, create_graph=True), "when create_graph=True"),
        (lambda: AF.jvp(lambda a, b: a * 2, (x, y), (x, y), strict=True), "independent of input 1"),
        (lambda: AF.hessian(lambda a: (a * 2).sum(), x, strict=True), "jacobian of the user-provided function with respect to input 0 is independent"),
        (lambda: AF.hvp(lambda a: a * 2, x, x), "should contain a single element"),
        (lambda: AF.vjp(lambda a: a * 2, x), "v can only be None"),
        (lambda: AF.jvp(lambda a: a * 2, x), "v can only be None"),
        (lambda: AF.vjp(lambda a: a * 2, x, mf.ones(3)), "v has invalid size"),
    ]
    for call, message in raises:
        with pytest.raises(RuntimeError, match=message):
            call()
    with pytest.raises(NotImplementedError, match="only implemented for `vectorize=True`"):
        AF.jacobian(lambda a: a * 2, x, strategy="forward-mode")
    with pytest.raises(TypeError, match="must be either a Tensor or a tuple of Tensors"):
        AF.vjp(lambda a: 3.0, x)


def test_xlogy_broadcasts_its_gradients_back_and_logit_eps_above_a_half():
    gx, gy = grad_of(mf.xlogy, [[0.5], [2.0]], [1.0, 3.0, 0.25])
    np.testing.assert_allclose(gx, [[math.log(0.75)], [math.log(0.75)]])
    np.testing.assert_allclose(gy, [2.5, 2.5 / 3, 10.0])
    x = [0.3, -0.5, 1.5, 0.0, 1.0]
    # torch's x < eps ? eps : (x > 1 - eps ? 1 - eps : x), not a clamp (whose min > max gives max)
    np.testing.assert_allclose(mf.logit(mf.tensor(x), 0.6).numpy(), [0.4055, 0.4055, -0.4055, 0.4055, -0.4055], atol=1e-4)
    np.testing.assert_array_equal(mf.logit(mf.tensor(x), 1).numpy(), [inf, inf, -inf, inf, -inf])


def test_pinv_gradient_is_torchs_closed_form_where_singular_values_are_dropped():
    A = mf.tensor([[2.0, 0.5, -1.0], [0.3, 1.5, 0.7]], dtype=mf.float64, requires_grad=True)
    w = mf.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=mf.float64)
    (mf.linalg.pinv(A, rtol=0.5) * w).sum().backward()  # one of two singular values dropped
    np.testing.assert_allclose(A.grad.numpy(), [[0.4576904291, 0.0949833163, 0.2950512486],
                                                [-0.6541788981, -2.6898501926, 0.4329658087]], atol=1e-9)
    a = mf.tensor([[1.0, 2.0, 3.0, 4.0]], dtype=mf.float64, requires_grad=True)
    mf.linalg.pinv(a.expand(3, 4)).sum().backward()  # rank 1: repeated zero singular values (was NaN)
    np.testing.assert_allclose(a.grad.numpy(), [[1 / 90, -1 / 90, -1 / 30, -1 / 18]], atol=1e-12)
