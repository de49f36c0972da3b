"""mf.optim in one process: SGD and AdamW against NumPy transcriptions of torch.optim's update
rules, zero_grad, parameters without gradients, state_dict round trips (in memory and through
mf.save / mf.load), bad hyper-parameters, clip_grad_norm_ and warmup_cosine_lr.
The same optimizers on meshes of several ranks are tested in distributed/test_dist_nn.py.
"""
import copy
import math

import numpy as np
import pytest

import meshflow as mf

SHAPES = [(3, 4), (5,)]
STEPS = 4


def initial_values(seed):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape) for shape in SHAPES]


def gradients(seed, steps=STEPS):
    """gradients[step][i] for parameter i (float64), different at every step."""
    rng = np.random.default_rng(seed)
    return [[rng.standard_normal(shape) for shape in SHAPES] for _ in range(steps)]


def parameters(values):
    return [mf.tensor(v, requires_grad=True) for v in values]


def run_steps(optimizer, params, grads_per_step):
    for grads in grads_per_step:
        for p, g in zip(params, grads):
            p.grad = None if g is None else mf.tensor(g)
        optimizer.step()


# ---------------------------------------------------------------------------------------------
# NumPy transcriptions of torch.optim.SGD and torch.optim.AdamW (single-tensor, foreach=False).

def sgd_reference(values, grads_per_step, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
    params, buffers = [v.copy() for v in values], [None] * len(values)
    for grads in grads_per_step:
        for i, g in enumerate(grads):
            if g is None:
                continue
            d = g + weight_decay * params[i] if weight_decay != 0 else g
            if momentum != 0:
                buffers[i] = d.copy() if buffers[i] is None else momentum * buffers[i] + (1 - dampening) * d
                d = d + momentum * buffers[i] if nesterov else buffers[i]
            params[i] = params[i] - lr * d
    return params, buffers


def adamw_reference(values, grads_per_step, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    beta1, beta2 = betas
    params = [v.copy() for v in values]
    exp_avg, exp_avg_sq, steps = [None] * len(values), [None] * len(values), [0] * len(values)
    for grads in grads_per_step:
        for i, g in enumerate(grads):
            if g is None:
                continue
            if exp_avg[i] is None:
                exp_avg[i], exp_avg_sq[i] = np.zeros_like(g), np.zeros_like(g)
            steps[i] += 1  # torch counts steps per parameter
            params[i] = params[i] * (1 - lr * weight_decay)
            exp_avg[i] = beta1 * exp_avg[i] + (1 - beta1) * g
            exp_avg_sq[i] = beta2 * exp_avg_sq[i] + (1 - beta2) * g * g
            bias_correction1 = 1 - beta1 ** steps[i]
            bias_correction2 = 1 - beta2 ** steps[i]
            denom = np.sqrt(exp_avg_sq[i]) / math.sqrt(bias_correction2) + eps
            params[i] = params[i] - (lr / bias_correction1) * exp_avg[i] / denom
    return params, exp_avg, exp_avg_sq


def assert_close(tensors, arrays, rtol=1e-12, atol=1e-12):
    assert len(tensors) == len(arrays)
    for t, a in zip(tensors, arrays):
        assert t.dtype == mf.float64 and t.shape == a.shape
        np.testing.assert_allclose(t.numpy(), a, rtol=rtol, atol=atol)


SGD_SETTINGS = [dict(lr=0.1), dict(lr=0.05, momentum=0.9), dict(lr=0.05, momentum=0.8, dampening=0.3),
                dict(lr=0.05, momentum=0.9, nesterov=True), dict(lr=0.1, weight_decay=0.2),
                dict(lr=0.03, momentum=0.7, dampening=0.1, weight_decay=0.05),
                dict(lr=0.03, momentum=0.9, weight_decay=0.1, nesterov=True)]


@pytest.mark.parametrize("settings", SGD_SETTINGS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_sgd_matches_torch_rule(settings):
    values, grads = initial_values(0), gradients(1)
    params = parameters(values)
    optimizer = mf.optim.SGD(params, **settings)
    run_steps(optimizer, params, grads)
    expected, buffers = sgd_reference(values, grads, **settings)
    assert_close(params, expected)
    state = optimizer.state_dict()
    assert set(state) == {"state", "param_groups"} and optimizer._impl.step_count == STEPS
    if settings.get("momentum", 0):
        assert_close([state["state"][i]["momentum_buffer"] for i in range(len(SHAPES))], buffers)
    else:
        assert state["state"] == {}


ADAMW_SETTINGS = [dict(lr=0.01), dict(lr=0.1, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.3),
                  dict(lr=0.05, betas=(0.0, 0.5), weight_decay=0.0), dict(lr=0.02, betas=(0.95, 0.0))]


@pytest.mark.parametrize("settings", ADAMW_SETTINGS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()))
def test_adamw_matches_torch_rule(settings):
    values, grads = initial_values(2), gradients(3)
    params = parameters(values)
    optimizer = mf.optim.AdamW(params, **settings)
    run_steps(optimizer, params, grads)
    expected, exp_avg, exp_avg_sq = adamw_reference(values, grads, **settings)
    assert_close(params, expected)
    state = optimizer.state_dict()
    assert all(int(state["state"][i]["step"].item()) == STEPS for i in range(len(SHAPES)))
    assert_close([state["state"][i]["exp_avg"] for i in range(len(SHAPES))], exp_avg)
    assert_close([state["state"][i]["exp_avg_sq"] for i in range(len(SHAPES))], exp_avg_sq)


def test_adamw_in_float32_follows_the_float64_reference():
    values, grads = initial_values(4), gradients(5)
    params = [mf.tensor(v.astype(np.float32), requires_grad=True) for v in values]
    optimizer = mf.optim.AdamW(params, lr=0.01, weight_decay=0.1)
    for step_grads in grads:
        for p, g in zip(params, step_grads):
            p.grad = mf.tensor(g.astype(np.float32))
        optimizer.step()
    expected, _, _ = adamw_reference(values, [[g.astype(np.float32).astype(np.float64) for g in s] for s in grads],
                                     lr=0.01, weight_decay=0.1)
    for p, e in zip(params, expected):
        assert p.dtype == mf.float32
        np.testing.assert_allclose(p.numpy(), e, rtol=1e-5, atol=1e-6)


def test_gradients_from_backward_drive_the_step():
    """One step on loss = sum(c * w * w) / 2 + sum(d * w): the gradient c * w + d comes from
    backward, and the parameter object the module holds is updated in place."""
    rng = np.random.default_rng(6)
    w0, c, d = rng.standard_normal((3, 4)), rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    w = mf.tensor(w0, requires_grad=True)
    optimizer = mf.optim.SGD([w], lr=0.1, momentum=0.9)
    for _ in range(3):
        optimizer.zero_grad()
        loss = (mf.tensor(c) * w * w).sum() / 2 + (mf.tensor(d) * w).sum()
        loss.backward()
        optimizer.step()
    expected, buffer = w0, None
    for _ in range(3):
        g = c * expected + d
        buffer = g if buffer is None else 0.9 * buffer + g
        expected = expected - 0.1 * buffer
    np.testing.assert_allclose(w.numpy(), expected, rtol=1e-12)
    assert w.is_leaf and w.requires_grad


def test_zero_grad_drops_every_gradient():
    params = parameters(initial_values(7))
    optimizer = mf.optim.AdamW(params)
    for p, g in zip(params, gradients(8)[0]):
        p.grad = mf.tensor(g)
    optimizer.zero_grad()
    assert all(p.grad is None for p in params)
    before = [p.numpy().copy() for p in params]
    optimizer.step()  # nothing to update, and no state is made
    assert_close(params, before, rtol=0, atol=0)
    assert optimizer.state_dict()["state"] == {}


@pytest.mark.parametrize("make", [lambda ps: mf.optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=0.1),
                                  lambda ps: mf.optim.AdamW(ps, lr=0.1, weight_decay=0.1)], ids=["SGD", "AdamW"])
def test_parameters_without_gradient_are_left_alone(make):
    """Weight decay is not applied to a parameter without a gradient, and it gets no state."""
    values, grads = initial_values(9), gradients(10, steps=3)
    for step in grads:
        step[1] = None
    params = parameters(values)
    optimizer = make(params)
    run_steps(optimizer, params, grads)
    np.testing.assert_array_equal(params[1].numpy(), values[1])
    assert set(optimizer.state_dict()["state"]) == {0}
    assert not np.allclose(params[0].numpy(), values[0])


def test_sgd_momentum_starts_at_a_parameters_first_gradient():
    values, grads = initial_values(11), gradients(12)
    grads[0][1] = grads[1][1] = None  # parameter 1 first gets a gradient at step 3
    params = parameters(values)
    settings = dict(lr=0.05, momentum=0.9, dampening=0.2)
    run_steps(mf.optim.SGD(params, **settings), params, grads)
    assert_close(params, sgd_reference(values, grads, **settings)[0])


def test_adamw_bias_correction_counts_a_parameters_own_steps():
    values, grads = initial_values(13), gradients(14)
    grads[0][1] = None  # parameter 1 first gets a gradient at step 2
    params = parameters(values)
    run_steps(mf.optim.AdamW(params, lr=0.1), params, grads)
    assert_close(params, adamw_reference(values, grads, lr=0.1)[0])


OPTIMIZERS = {"SGD": (mf.optim.SGD, dict(lr=0.05, momentum=0.9, weight_decay=0.1, nesterov=True)),
              "AdamW": (mf.optim.AdamW, dict(lr=0.05, betas=(0.8, 0.9), weight_decay=0.1))}


@pytest.mark.parametrize("through_checkpoint", [False, True], ids=["in-memory", "mf.save"])
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_state_dict_round_trip_continues_identically(name, through_checkpoint, tmp_path):
    make, settings = OPTIMIZERS[name]
    values, grads = initial_values(15), gradients(16, steps=5)
    params = parameters(values)
    optimizer = make(params, **settings)
    run_steps(optimizer, params, grads[:2])
    state = optimizer.state_dict()
    if through_checkpoint:
        mf.save({"optimizer": state}, tmp_path / "ckpt")
        state = mf.load(tmp_path / "ckpt")["optimizer"]
    else:  # a snapshot: the live dict's tensors would be shared (the next test)
        state = copy.deepcopy(state)
    resumed_params = parameters([p.numpy().copy() for p in params])
    resumed = make(resumed_params, **settings)
    resumed.load_state_dict(state)
    run_steps(optimizer, params, grads[2:])
    run_steps(resumed, resumed_params, grads[2:])
    assert_close(resumed_params, [p.numpy() for p in params], rtol=0, atol=0)
    # Adam's states carry their step; SGD's update does not depend on it (torch saves none).
    assert resumed._impl.step_count == (3 if name == "SGD" else 5)
    reference = sgd_reference if name == "SGD" else adamw_reference
    assert_close(params, reference(values, grads, **settings)[0])


# torch 2's values: what the optimizer and the one loaded from its live state_dict reach.
SHARED_STATE_TORCH = {"SGD": ([0.402758, -0.27637, 0.492014, -0.093765], [0.370978, -0.004827, 0.615361, -0.087191]),
                      "AdamW": ([0.249327, -0.114716, 0.651128, -0.005206],
                                [0.248204, -0.026987, 0.700555, -0.012071])}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_optimizers_loaded_from_one_live_state_dict_step_the_same_state(name):
    # torch's load_state_dict keeps the given tensors where no cast or move is needed: the
    # loaded optimizer and the one whose state_dict() it read update the same moments and
    # count the same "step" tensor, each step of either advancing both.
    make, settings = OPTIMIZERS[name]
    rng = np.random.default_rng(0)
    values = [rng.standard_normal(4).astype(np.float32) for _ in range(2)]
    grads = [[rng.standard_normal(4).astype(np.float32) for _ in range(2)] for _ in range(5)]
    params = parameters(values)
    optimizer = make(params, **settings)
    run_steps(optimizer, params, grads[:2])
    state = optimizer.state_dict()
    resumed_params = parameters([p.numpy().copy() for p in params])
    resumed = make(resumed_params, **settings)
    resumed.load_state_dict(state)
    run_steps(optimizer, params, grads[2:])
    run_steps(resumed, resumed_params, grads[2:])
    want_resumed, want = SHARED_STATE_TORCH[name]
    np.testing.assert_allclose(resumed_params[0].numpy(), want_resumed, atol=1e-5)
    np.testing.assert_allclose(params[0].numpy(), want, atol=1e-5)
    if name == "AdamW":
        assert resumed.state_dict()["state"][0]["step"].item() == 8  # 2, then 3 of each
    float64 = make(parameters([v.astype(np.float64) for v in values]), **settings)
    float64.load_state_dict(state)  # cast: a copy of its own, which the others' steps leave
    before = float64.state_dict()["state"][0]
    before = {k: v.clone() for k, v in before.items()}
    run_steps(optimizer, params, grads[:1])
    assert all(np.array_equal(v.numpy(), float64.state_dict()["state"][0][k].numpy()) or k == "step"
               for k, v in before.items())


@pytest.mark.parametrize("dtype", [mf.float32, mf.int64, mf.float64])
def test_adam_takes_its_step_saved_in_any_dtype(dtype):
    # torch saves Adam's per-parameter "step" as a float32 tensor (meshflow as int64): a torch
    # checkpoint resumes with the bias correction of that step.
    values, grads = initial_values(15), gradients(16, steps=5)
    params = parameters(values)
    optimizer = mf.optim.AdamW(params, lr=0.05)
    run_steps(optimizer, params, grads[:2])
    state = copy.deepcopy(optimizer.state_dict())  # a snapshot: the live dict's tensors would be shared
    for entries in state["state"].values():
        entries["step"] = entries["step"].to(dtype)
    resumed_params = parameters([p.numpy().copy() for p in params])
    resumed = mf.optim.AdamW(resumed_params, lr=0.05)
    resumed.load_state_dict(state)
    assert all(int(s["step"].item()) == 2 for s in resumed.state_dict()["state"].values())
    run_steps(optimizer, params, grads[2:])
    run_steps(resumed, resumed_params, grads[2:])
    assert_close(resumed_params, [p.numpy() for p in params], rtol=0, atol=0)


def test_state_dict_is_live_as_torch_s_and_lr_can_change():
    values, grads = initial_values(17), gradients(18)
    params = parameters(values)
    optimizer = mf.optim.SGD(params, lr=0.1, momentum=0.5)
    run_steps(optimizer, params, grads[:1])
    held = optimizer.state_dict()["state"][0]["momentum_buffer"]
    first = held.numpy().copy()
    held_state = optimizer.state[params[1]]
    optimizer.lr = 0.02
    assert optimizer.lr == 0.02
    run_steps(optimizer, params, grads[1:])
    np.testing.assert_array_equal(first, grads[0][0])  # a copy keeps the value of its time
    params_ref, buffers = sgd_reference(values, grads[:1], lr=0.1, momentum=0.5)
    for step_grads in grads[1:]:  # the momentum buffers carry over the lr change
        for i, g in enumerate(step_grads):
            buffers[i] = 0.5 * buffers[i] + g
            params_ref[i] = params_ref[i] - 0.02 * buffers[i]
    assert_close(params, params_ref)
    # The tensors state_dict() and state handed out are the optimizer's own, updated in place
    # by the later steps, as torch's.
    np.testing.assert_allclose(held.numpy(), buffers[0], rtol=1e-6)
    np.testing.assert_allclose(held_state["momentum_buffer"].numpy(), buffers[1], rtol=1e-6)


def test_adam_state_and_its_step_are_live_as_torch_s():
    w = mf.nn.Parameter(mf.tensor([1.0, -2.0, 3.0]))
    optimizer = mf.optim.Adam([w], lr=0.1)
    (w * w).sum().backward()
    optimizer.step()
    state = optimizer.state[w]
    optimizer.zero_grad()
    (w * w * w).sum().backward()
    optimizer.step()
    # torch 2's values after the second step
    np.testing.assert_allclose(state["exp_avg"].numpy(), [0.423, 0.723, 3.063], rtol=1e-4)
    np.testing.assert_allclose(state["exp_avg_sq"].numpy(), [0.0099, 0.13327, 0.67252], rtol=1e-4)
    assert float(state["step"]) == 2.0


def test_load_state_dict_rejects_a_state_for_another_parameter_count():
    params = parameters(initial_values(19))
    optimizer = mf.optim.SGD(params, lr=0.1, momentum=0.9)
    with pytest.raises(ValueError, match=r"optimizer state for parameter 2; the optimizer has 2 parameters"):
        optimizer.load_state_dict({"step": 1, "state": {2: {"momentum_buffer": mf.tensor(np.zeros(5))}}})


def test_load_state_dict_names_a_value_that_is_not_a_tensor():
    optimizer = mf.optim.SGD(parameters(initial_values(19)), lr=0.1, momentum=0.9)
    with pytest.raises(TypeError, match=r"\[load_state_dict\] state 'momentum_buffer' of parameter 1 is a "
                                        r"numpy.ndarray; expected a meshflow Tensor"):
        optimizer.load_state_dict({"step": 1, "state": {1: {"momentum_buffer": np.zeros(5)}}})


@pytest.mark.parametrize("make, message", [
    (lambda ps: mf.optim.SGD(ps, lr=-0.1), "SGD: lr, momentum and weight_decay must be >= 0"),
    (lambda ps: mf.optim.SGD(ps, lr=0.1, momentum=-0.5), "SGD: lr, momentum and weight_decay must be >= 0"),
    (lambda ps: mf.optim.SGD(ps, lr=0.1, weight_decay=-1), "SGD: lr, momentum and weight_decay must be >= 0"),
    (lambda ps: mf.optim.SGD(ps, lr=0.1, nesterov=True), "nesterov momentum needs momentum > 0 and dampening 0"),
    (lambda ps: mf.optim.SGD(ps, lr=0.1, momentum=0.9, dampening=0.1, nesterov=True), "nesterov"),
    (lambda ps: mf.optim.AdamW(ps, lr=-1e-3), "AdamW: expected lr, eps, weight_decay >= 0 and betas in"),
    (lambda ps: mf.optim.AdamW(ps, eps=-1e-8), "AdamW: expected"),
    (lambda ps: mf.optim.AdamW(ps, weight_decay=-0.1), "AdamW: expected"),
    (lambda ps: mf.optim.AdamW(ps, betas=(1.0, 0.999)), "AdamW: expected"),
    (lambda ps: mf.optim.AdamW(ps, betas=(0.9, 1.0)), "AdamW: expected"),
    (lambda ps: mf.optim.AdamW(ps, betas=(-0.1, 0.999)), "AdamW: expected"),
])
def test_bad_hyper_parameters_raise(make, message):
    with pytest.raises(ValueError, match=message):
        make(parameters(initial_values(20)))


@pytest.mark.parametrize("make", [lambda ps: mf.optim.SGD(ps, lr=0.1), lambda ps: mf.optim.AdamW(ps)])
def test_bad_parameters_raise(make):
    # As torch: an empty list and a lone tensor (which would iterate as copies of its rows,
    # so that step() changed nothing) are refused at the call, not accepted as a no-op.
    leaf = mf.tensor(np.ones(2), requires_grad=True)
    with pytest.raises(ValueError, match=r"^optimizer got an empty parameter list$"):
        make([])
    with pytest.raises(ValueError, match=r"^optimizer got an empty parameter list$"):
        make(p for p in [])
    with pytest.raises(TypeError, match="params must be an iterable of meshflow Tensors .* got a single Tensor"):
        make(leaf)
    with pytest.raises(TypeError, match=r"parameter 1 is a numpy.ndarray; expected a meshflow Tensor"):
        make([leaf, np.zeros(2)])
    with pytest.raises(ValueError, match=r"a parameter group needs a 'params' entry"):
        make([{"lr": 0.1}])  # groups are dicts with "params" (tests/python/test_optim_groups.py)


def test_non_leaf_or_integer_parameters_raise():
    leaf = mf.tensor(np.ones(2), requires_grad=True)
    with pytest.raises(ValueError, match="optimizer parameter 0 is not a floating or complex leaf tensor"):
        mf.optim.SGD([leaf * 2], lr=0.1)
    with pytest.raises(ValueError, match="optimizer parameter 1 is not a floating or complex leaf tensor"):
        mf.optim.AdamW([leaf, mf.tensor(np.zeros(2, np.int64))])


# ---------------------------------------------------------------------------------------------
# Gradient clipping and the schedule.

def clip_reference(grads, max_norm):
    """torch.nn.utils.clip_grad_norm_: (total 2-norm, the gradients after clipping)."""
    norm = math.sqrt(sum(float(np.sum(g * g)) for g in grads))
    scale = min(1.0, max_norm / (norm + 1e-6))
    return norm, [g * scale for g in grads]


@pytest.mark.parametrize("max_norm_factor", [0.25, 0.999, 2.0])
def test_clip_grad_norm_scales_only_above_max_norm(max_norm_factor):
    grads = gradients(21, steps=1)[0]
    params = parameters(initial_values(22)) + [mf.tensor(np.ones(3), requires_grad=True)]  # the last has no grad
    for p, g in zip(params, grads):
        p.grad = mf.tensor(g)
    norm_before = math.sqrt(sum(float(np.sum(g * g)) for g in grads))
    max_norm = max_norm_factor * norm_before
    expected_norm, expected = clip_reference(grads, max_norm)
    norm = mf.optim.clip_grad_norm_(params, max_norm)
    assert norm == pytest.approx(expected_norm, rel=1e-12)
    assert_close([p.grad for p in params[:2]], expected)
    assert params[2].grad is None
    clipped_norm = math.sqrt(sum(float(np.sum(p.grad.numpy() ** 2)) for p in params[:2]))
    assert clipped_norm == pytest.approx(min(max_norm, norm_before), rel=1e-6)


def test_clip_grad_norm_in_float32_and_without_gradients():
    g = np.array([[3.0, 4.0], [0.0, 12.0]], np.float32)  # norm 13
    p = mf.tensor(np.zeros((2, 2), np.float32), requires_grad=True)
    assert mf.optim.clip_grad_norm_([p], 1.0) == 0.0  # no gradient: norm 0, nothing to scale
    p.grad = mf.tensor(g)
    assert mf.optim.clip_grad_norm_(iter([p]), 6.5) == pytest.approx(13.0, rel=1e-6)
    np.testing.assert_allclose(p.grad.numpy(), g / 2, rtol=1e-5)
    assert p.grad.dtype == mf.float32
    assert mf.optim.clip_grad_norm_(p, 100.0) == pytest.approx(6.5, rel=1e-6)  # a lone tensor, as torch
    with pytest.raises(TypeError, match=r"\[clip_grad_norm_\] expected a meshflow Tensor, got numpy.ndarray"):
        mf.optim.clip_grad_norm_([p, np.zeros(2)], 1.0)


@pytest.mark.parametrize("norm_type", [1, 3.0, math.inf, "inf"])
def test_clip_grad_norm_of_other_orders(norm_type):
    """torch's norm_type: the joint norm of the gradients' norms of that order."""
    grads = gradients(23, steps=1)[0]
    params = parameters(initial_values(24))
    for p, g in zip(params, grads):
        p.grad = mf.tensor(g)
    order = float(norm_type)
    flat = np.concatenate([g.ravel() for g in grads]).astype(np.float64)
    norm = np.abs(flat).max() if order == math.inf else (np.abs(flat) ** order).sum() ** (1 / order)
    max_norm = norm / 3
    got = mf.nn.utils.clip_grad_norm_(params, max_norm, norm_type)
    assert float(got) == pytest.approx(norm, rel=1e-5)
    assert_close([p.grad for p in params], [g * (max_norm / (norm + 1e-6)) for g in grads])


def test_clip_grad_norm_error_if_nonfinite_leaves_the_gradients():
    p = mf.tensor(np.ones(2, np.float32), requires_grad=True)
    p.grad = mf.tensor(np.array([1.0, np.inf], np.float32))
    with pytest.raises(RuntimeError, match="non-finite"):
        mf.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
    np.testing.assert_array_equal(p.grad.numpy(), [1.0, np.inf])
    p.grad = mf.tensor(np.array([3.0, 4.0], np.float32))
    assert float(mf.nn.utils.clip_grad_norm_([p], 1.0, 2.0, True, foreach=True)) == pytest.approx(5.0)


@pytest.mark.parametrize("device", ["cpu", "testdev"])
def test_clip_grad_norm_sums_every_shape_and_dtype_as_torch(device):
    """The fused sum of squares (one call per dtype here) over gradients of float32 and
    float64, 0-d, empty and longer than its chunks: torch's norm and scale; get_total_norm
    the same norm; error_if_nonfinite reads it and passes a finite one."""
    rng = np.random.default_rng(31)
    shapes = [(70000,), (), (0, 3), (5, 7), (33,)]
    dtypes = [np.float32, np.float64, np.float32, np.float64, np.float32]
    grads = [rng.standard_normal(s).astype(d) for s, d in zip(shapes, dtypes)]
    params = [mf.tensor(np.zeros(s, d), device=device, requires_grad=True) for s, d in zip(shapes, dtypes)]
    for p, g in zip(params, grads):
        p.grad = mf.tensor(g, device=device)
    norm = math.sqrt(sum(float(np.sum(g.astype(np.float64) ** 2)) for g in grads))
    total = mf.nn.utils.get_total_norm([p.grad for p in params])
    assert total.dtype == mf.float64 and float(total) == pytest.approx(norm, rel=1e-6)
    got = mf.nn.utils.clip_grad_norm_(params, norm / 4, error_if_nonfinite=True)
    assert got.device == params[0].device and float(got) == pytest.approx(norm, rel=1e-6)
    for p, g in zip(params, grads):
        assert p.grad.dtype == p.dtype
        np.testing.assert_allclose(p.grad.numpy(), g * (norm / 4 / (norm + 1e-6)), rtol=1e-5)


def test_sum_squares_refuses_what_it_cannot_sum():
    a = mf.tensor(np.ones(2, np.float32))
    with pytest.raises(ValueError, match=r"\[sum_squares\] inputs of dtypes float32 and float64; expected floating "
                                         "tensors of one dtype"):
        mf._C.apply("sum_squares", [a._impl, mf.tensor(np.ones(2))._impl], {})
    with pytest.raises(ValueError, match=r"\[sum_squares\] inputs of dtypes int64 and int64"):
        mf._C.apply("sum_squares", [mf.tensor([1, 2])._impl], {})


def test_clip_grad_value_clamps_over_the_gradient_s_memory():
    """clip_grad_value_ writes the gradient in place: a handle to it taken before sees the
    clamped values (as torch's), and its dtype stays."""
    w = mf.tensor(np.zeros(4, np.float32), requires_grad=True)
    w.grad = mf.tensor(np.array([-3.0, -0.5, 0.25, 7.0], np.float32))
    held = w.grad
    assert mf.nn.utils.clip_grad_value_(w, 1.0) is None
    np.testing.assert_array_equal(held.numpy(), [-1.0, -0.5, 0.25, 1.0])
    assert w.grad.dtype == mf.float32
    np.testing.assert_array_equal(w.grad.numpy(), [-1.0, -0.5, 0.25, 1.0])


def cosine_reference(step, warmup, total, max_lr, min_lr):
    """Linear warmup reaching max_lr at the last warmup step, then half a cosine from max_lr
    (at `warmup`) to min_lr (at `total`), then min_lr (llm.c's schedule)."""
    if step < warmup:
        return max_lr * (step + 1) / warmup
    if step >= total:
        return min_lr
    return min_lr + (max_lr - min_lr) * 0.5 * (1 + math.cos(math.pi * (step - warmup) / (total - warmup)))


@pytest.mark.parametrize("warmup, total, max_lr, min_lr", [(4, 20, 1e-3, 1e-4), (0, 10, 0.5, 0.0), (3, 3, 2.0, 1.0)])
def test_warmup_cosine_lr(warmup, total, max_lr, min_lr):
    values = [mf.optim.warmup_cosine_lr(s, warmup, total, max_lr, min_lr) for s in range(total + 3)]
    expected = [cosine_reference(s, warmup, total, max_lr, min_lr) for s in range(total + 3)]
    np.testing.assert_allclose(values, expected, rtol=1e-14, atol=0)
    assert max(values) == pytest.approx(max_lr) and values[-1] == min_lr
    decay = values[max(warmup - 1, 0):total + 1]
    assert all(a >= b for a, b in zip(decay, decay[1:]))  # never rises after warmup
    if total - warmup >= 2 and (total - warmup) % 2 == 0:
        assert values[warmup + (total - warmup) // 2] == pytest.approx((max_lr + min_lr) / 2)


# ---- torch.optim's everyday surface: param_groups, zero_grad(set_to_none), the schedulers.

def _lrs(optimizer, scheduler, steps):
    out = []
    for _ in range(steps):
        out.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return out


def test_param_groups_are_the_optimizers_learning_rate():
    w = mf.tensor([1.0, -2.0], requires_grad=True)
    opt = mf.optim.SGD([w], lr=0.5)
    (group,) = opt.param_groups
    assert group["lr"] == 0.5 and group["params"][0] is not None and "lr" in group
    for g in opt.param_groups:
        g["lr"] = 0.25
    assert opt.lr == 0.25
    (w * w).sum().backward()
    opt.step()
    np.testing.assert_allclose(w.numpy(), [1.0 - 0.25 * 2.0, -2.0 + 0.25 * 4.0])
    (w * w).sum().backward()
    opt.zero_grad(set_to_none=False)
    assert w.grad.numpy().tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert w.grad is None


def test_schedulers_follow_torchs_formulas():
    from meshflow.optim import lr_scheduler as sched

    def opt(lr=0.1):
        return mf.optim.SGD([mf.tensor([1.0], requires_grad=True)], lr=lr)

    o = opt()
    np.testing.assert_allclose(_lrs(o, sched.StepLR(o, step_size=2, gamma=0.5), 5), [0.1, 0.1, 0.05, 0.05, 0.025])
    o = opt()
    np.testing.assert_allclose(_lrs(o, sched.MultiStepLR(o, [1, 3], gamma=0.1), 4), [0.1, 0.01, 0.01, 0.001])
    o = opt()
    np.testing.assert_allclose(_lrs(o, sched.ExponentialLR(o, 0.9), 3), [0.1, 0.09, 0.081])
    o = opt()
    np.testing.assert_allclose(_lrs(o, sched.LambdaLR(o, lambda e: 1.0 / (e + 1)), 3), [0.1, 0.05, 0.1 / 3])
    o = opt(0.3)
    np.testing.assert_allclose(_lrs(o, sched.LinearLR(o, start_factor=0.5, total_iters=2), 4), [0.15, 0.225, 0.3, 0.3])
    o = opt()
    s = sched.CosineAnnealingLR(o, T_max=4, eta_min=0.02)
    np.testing.assert_allclose(_lrs(o, s, 5), [0.1, 0.02 + 0.08 * (1 + math.cos(math.pi / 4)) / 2, 0.06,
                                               0.02 + 0.08 * (1 + math.cos(3 * math.pi / 4)) / 2, 0.02])
    assert s.get_last_lr() == [o.lr]
    o = opt()
    lrs = _lrs(o, sched.OneCycleLR(o, max_lr=1.0, total_steps=10), 10)
    np.testing.assert_allclose([lrs[0], lrs[2], lrs[-1]], [1.0 / 25, 1.0, 1.0 / 25 / 1e4])
    assert lrs[1] == pytest.approx((1.0 + 1.0 / 25) / 2) and all(a > b for a, b in zip(lrs[2:], lrs[3:]))
    with pytest.raises(ValueError, match="You must define either total_steps OR"):
        sched.OneCycleLR(opt(), max_lr=1.0)


def test_a_dropped_optimizer_goes_at_once():
    """No reference cycle (param_groups -> optimizer): its state (AdamW's moments) is freed
    when the last reference goes, not at the garbage collector's next run."""
    import gc
    import weakref
    gc.disable()
    try:
        opt = mf.optim.AdamW([mf.tensor([1.0, 2.0], requires_grad=True)], lr=0.1)
        opt.param_groups[0]["lr"] = 0.2
        gone = weakref.ref(opt)
        del opt
        assert gone() is None
    finally:
        gc.enable()


def test_torch_s_speed_flags_are_taken_and_maximize_climbs():
    """nanoGPT passes fused=True when torch's signature has it; foreach, capturable likewise
    choose kernels. Adam(decoupled_weight_decay=True) is AdamW."""
    for make in (lambda ps: mf.optim.SGD(ps, lr=0.1, foreach=True, fused=True),
                 lambda ps: mf.optim.AdamW(ps, lr=0.1, fused=True, foreach=False, capturable=True),
                 lambda ps: mf.optim.Adam(ps, lr=0.1, fused=True),
                 lambda ps: mf.optim.RMSprop(ps, lr=0.1, foreach=True, capturable=True),
                 lambda ps: mf.optim.Adagrad(ps, lr=0.1, fused=None)):
        make([mf.tensor(np.ones(2), requires_grad=True)])
    with pytest.raises(NotImplementedError, match="differentiable"):
        mf.optim.SGD([mf.tensor(np.ones(2), requires_grad=True)], differentiable=True)
    values = initial_values(31)
    a, b = parameters(values), parameters(values)
    optimizers = [mf.optim.Adam(a, lr=0.1, weight_decay=0.1, decoupled_weight_decay=True),
                  mf.optim.AdamW(b, lr=0.1, weight_decay=0.1)]
    for ps, opt in zip((a, b), optimizers):
        for p, g in zip(ps, gradients(32, steps=1)[0]):
            p.grad = mf.tensor(g)
        opt.step()
    assert_close(a, [p.numpy() for p in b])
    for cls in (mf.optim.RMSprop, mf.optim.Adagrad):
        up, down = parameters(values), parameters(values)
        for ps, maximize in ((up, True), (down, False)):
            opt = cls(ps, lr=0.1, maximize=maximize)
            for p, g in zip(ps, gradients(33, steps=1)[0]):
                p.grad = mf.tensor(g if maximize else -g)
            opt.step()
        assert_close(up, [p.numpy() for p in down])


@pytest.mark.parametrize("zero_stage", [1, 2, 3])
@pytest.mark.parametrize("on_mesh", [False, True])
def test_a_zero_stage_on_one_device_steps_as_plain(zero_stage, on_mesh):
    """ZeRO shards along mesh axes of more than one rank (tests/python/distributed/test_dist_zero.py):
    local parameters and a [1] mesh keep their layouts and step exactly as without it."""
    results = []
    for stage in (0, zero_stage):
        params = parameters(initial_values(3))
        if on_mesh:
            params = [mf.tensor(p.numpy(), placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.broadcast,
                                requires_grad=True) for p in params]
        opt = mf.optim.AdamW(params, lr=0.1, zero_stage=stage)
        assert opt.zero_stage == stage
        for grads in gradients(4, steps=2):
            for p, g in zip(params, grads):
                p.grad = mf.tensor(g, dtype=p.dtype, placement=p.placement, sbp=p.sbp) if on_mesh else \
                    mf.tensor(g, dtype=p.dtype)
            opt.step()
        results.append([p.numpy() for p in params])
    for plain, zero in zip(*results):
        np.testing.assert_array_equal(plain, zero)


def test_a_bad_zero_stage_raises():
    with pytest.raises(ValueError, match="zero_stage must be 0, 1, 2 or 3; got 4"):
        mf.optim.SGD(parameters(initial_values(0)), lr=0.1, zero_stage=4)


def test_state_is_one_dict_that_keeps_what_a_program_adds():
    """As torch's defaultdict(dict): the same dicts each read, their tensors live, a key a
    program adds kept and saved (values checked against torch 2.15)."""
    w, v = mf.nn.Parameter(mf.ones(3)), mf.nn.Parameter(mf.ones(2))
    opt = mf.optim.SGD([w, v], lr=0.1, momentum=0.9)
    assert dict(opt.state[w]) == {} and len(opt.state) == 1
    (w.sum() + v.sum()).backward()
    opt.step()
    entry = opt.state[w]
    buffer = entry["momentum_buffer"]
    (w.sum() + v.sum()).backward()
    opt.step()
    assert opt.state[w] is entry
    np.testing.assert_allclose(buffer.numpy(), [2.9, 2.9, 2.9], rtol=1e-6)
    opt.state[w]["custom"] = 7
    saved = opt.state_dict()
    assert sorted(saved["state"][0]) == ["custom", "momentum_buffer"] and saved["state"][0]["custom"] == 7
    again = mf.optim.SGD([w, v], lr=0.1, momentum=0.9)
    again.load_state_dict(saved)
    assert again.state[w]["custom"] == 7
    np.testing.assert_array_equal(again.state[w]["momentum_buffer"].numpy(), buffer.numpy())
    assert sorted(copy.deepcopy(opt).state_dict()["state"][0]) == ["custom", "momentum_buffer"]
