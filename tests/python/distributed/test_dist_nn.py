"""Modules, optimizers and losses on 2 and 4 ranks: an MLP trained under data, tensor and
hybrid ([2, 2]) parallelism ends with the parameters of the same training on one device;
gradients keep their parameter's SBP, optimizer steps move no data, clip_grad_norm_ sees the
one-device norm (of gradients of any SBP, raising a non-finite one on every rank), dropout drops the same elements in every layout, and vocabulary-parallel
cross_entropy equals the one-device loss and gradient without gathering the logits.

Every rank runs every test and computes the one-device reference itself; tests needing more
ranks than the world has skip on all of them.
"""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from meshflow import nn
from conftest import collectives
from sbp_reference import coordinate_of, global_from_parts, hierarchy_of, local_slices

S, B, P = mf.sbp.split, mf.sbp.broadcast, mf.sbp.partial_sum

IN, HIDDEN, OUT, BATCH = 6, 10, 3, 6  # HIDDEN and BATCH split unevenly over 4 ranks
STEPS = 3
# Column-parallel first layer (its outputs split), row-parallel second (its inputs split).
TENSOR_PARALLEL = {"0.weight": S(0), "0.bias": S(0), "2.weight": S(1), "2.bias": B}


def mesh_ranks(mesh):
    world = mf.env.get_world_size()
    if mesh == "2x2":
        if world < 4:
            pytest.skip(f"needs 4 ranks, the world has {world}")
        return [[0, 1], [2, 3]]
    return list(range(world))


# Each layout: (mesh, the input's SBP, the parameters' SBP as a function of their name).
LAYOUTS = {
    "data": ("world", (S(0),), lambda name, p: B),
    "tensor": ("world", (B,), lambda name, p: TENSOR_PARALLEL[name]),
    "2x2": ("2x2", (S(0), B), lambda name, p: (B, TENSOR_PARALLEL[name])),
}
DTYPES = {"float64": (np.float64, 1e-10), "float32": (np.float32, 1e-5)}
OPTIMIZERS = {"SGD": lambda ps: mf.optim.SGD(ps, lr=0.2, momentum=0.9, weight_decay=0.01),
              "AdamW": lambda ps: mf.optim.AdamW(ps, lr=0.05, weight_decay=0.1)}
MAX_NORM = 0.1


def make_mlp(dtype):
    mf.manual_seed(0)
    mlp = nn.Sequential(nn.Linear(IN, HIDDEN), nn.GELU(), nn.Linear(HIDDEN, OUT))
    for p in mlp.parameters():
        p.data = p.to(mf.dtype(np.dtype(dtype).name))
    return mlp


def batch(dtype):
    rng = np.random.default_rng(1)
    return rng.standard_normal((BATCH, IN)).astype(dtype), rng.standard_normal((BATCH, OUT)).astype(dtype)


def train(mlp, x, target, make_optimizer, after_backward=lambda: None):
    """STEPS steps of a mean-squared-error regression with clipped gradients; returns the
    losses and the gradient norms before clipping."""
    optimizer = make_optimizer(mlp.parameters())
    losses, norms = [], []
    for _ in range(STEPS):
        optimizer.zero_grad()
        error = mlp(x) - target
        loss = (error * error).mean()
        loss.backward()
        after_backward()
        norms.append(mf.optim.clip_grad_norm_(mlp.parameters(), MAX_NORM))
        _, moved = collectives(optimizer.step)
        assert moved == 0, "an optimizer step communicated"
        losses.append(float(loss.numpy()))
    return losses, norms


@pytest.mark.parametrize("dtype_name", sorted(DTYPES))
@pytest.mark.parametrize("optimizer_name", sorted(OPTIMIZERS))
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_parallel_training_matches_one_device(layout, optimizer_name, dtype_name):
    mesh, input_sbp, parameter_sbp = LAYOUTS[layout]
    ranks = mesh_ranks(mesh)
    placement = mf.placement("cpu", ranks=ranks)
    dtype, tolerance = DTYPES[dtype_name]
    make_optimizer = OPTIMIZERS[optimizer_name]
    x, target = batch(dtype)

    reference = make_mlp(dtype)
    expected_losses, expected_norms = train(reference, mf.tensor(x), mf.tensor(target), make_optimizer)
    assert expected_norms[0] > MAX_NORM  # the clipping path runs

    mlp = make_mlp(dtype).to_global(placement, parameter_sbp)
    layouts = {name: (p.placement, p.sbp) for name, p in mlp.named_parameters()}

    def gradients_keep_their_parameters_layout():
        for name, p in mlp.named_parameters():
            assert (p.grad.placement, p.grad.sbp) == layouts[name], name

    losses, norms = train(mlp, mf.tensor(x, placement=placement, sbp=input_sbp),
                          mf.tensor(target, placement=placement, sbp=input_sbp), make_optimizer,
                          gradients_keep_their_parameters_layout)
    np.testing.assert_allclose(losses, expected_losses, rtol=tolerance)
    np.testing.assert_allclose(norms, expected_norms, rtol=tolerance)
    for (name, p), (_, q) in zip(mlp.named_parameters(), reference.named_parameters()):
        assert (p.placement, p.sbp) == layouts[name], name  # the steps kept the layouts
        np.testing.assert_allclose(p.numpy(), q.numpy(), rtol=tolerance, atol=tolerance, err_msg=name)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_to_global_with_an_sbp_function_keeps_each_ranks_part(layout):
    mesh, _, parameter_sbp = LAYOUTS[layout]
    ranks = mesh_ranks(mesh)
    full = {name: p.numpy().copy() for name, p in make_mlp(np.float32).named_parameters()}
    mlp = make_mlp(np.float32).to_global(mf.placement("cpu", ranks=ranks), parameter_sbp)
    coordinate = coordinate_of(ranks, mf.env.get_rank())
    for name, p in mlp.named_parameters():
        expected_sbp = parameter_sbp(name, p)
        assert p.sbp == (expected_sbp if isinstance(expected_sbp, tuple) else (expected_sbp,)), name
        part = full[name][local_slices(full[name].shape, hierarchy_of(ranks), p.sbp, coordinate)]
        np.testing.assert_array_equal(p.to_local().numpy(), part, err_msg=name)
    # Another layout from a global module: boxing, same values.
    mlp.to_global(mf.placement("cpu", ranks=ranks), lambda name, p: (B,) * len(p.sbp))
    for name, p in mlp.named_parameters():
        np.testing.assert_array_equal(p.to_local().numpy(), full[name], err_msg=name)


DROPOUT_LAYOUTS = [("world", (B,)), ("world", (S(0),)), ("world", (S(1),)), ("world", (P,)), ("2x2", (S(0), S(1))),
                   ("2x2", (S(1), B)), ("2x2", (P, S(0)))]


@pytest.mark.parametrize("mesh, nd_sbp", DROPOUT_LAYOUTS, ids=[f"{m}-{s}" for m, s in DROPOUT_LAYOUTS])
def test_dropout_drops_the_same_elements_as_on_one_device(mesh, nd_sbp):
    ranks = mesh_ranks(mesh)
    rng = np.random.default_rng(2)
    value, c = rng.standard_normal((7, 9)) + 4, rng.standard_normal((7, 9))  # 7 and 9 split unevenly
    mf.manual_seed(3)
    mf.rand(5)  # the generator's counter has moved on before the dropout
    x = mf.tensor(value, requires_grad=True)
    y = nn.Dropout(0.4)(x)
    (y * mf.tensor(c)).sum().backward()
    expected, expected_grad = y.numpy(), x.grad.numpy()
    assert 0 < (expected == 0).sum() < value.size

    mf.manual_seed(3)
    mf.rand(5)
    x = global_from_parts(value, ranks, nd_sbp).requires_grad_()
    y = nn.Dropout(0.4)(x)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-12)
    (y * mf.tensor(c, placement=x.placement, sbp=(B,) * len(nd_sbp))).sum().backward()
    assert x.grad.sbp == x.sbp
    np.testing.assert_allclose(x.grad.numpy(), expected_grad, rtol=1e-12)


CROSS_ENTROPY_LAYOUTS = [("world", (S(1),), (B,)), ("2x2", (S(0), S(1)), (S(0), B)), ("2x2", (S(1), S(1)), (B, B))]


@pytest.mark.parametrize("ignored", [False, True], ids=["all-rows", "ignore-index"])
@pytest.mark.parametrize("mesh, logits_sbp, target_sbp", CROSS_ENTROPY_LAYOUTS,
                         ids=[f"{m}-{s}" for m, s, _ in CROSS_ENTROPY_LAYOUTS])
def test_vocabulary_parallel_cross_entropy_matches_one_device_without_gathering(mesh, logits_sbp, target_sbp, ignored):
    ranks = mesh_ranks(mesh)
    placement = mf.placement("cpu", ranks=ranks)
    rows, classes = 6, 203  # 203 classes split unevenly
    rng = np.random.default_rng(4)
    logits, target = rng.standard_normal((rows, classes)) * 3, rng.integers(0, classes, rows)
    if ignored:
        target[[1, 4]] = -100  # torch's default ignore_index: left out of the sum and the count
    kept = target != -100
    shifted = logits - logits.max(1, keepdims=True)
    softmax = np.exp(shifted) / np.exp(shifted).sum(1, keepdims=True)
    picked = np.where(kept, target, 0)
    expected = -np.log(softmax[np.arange(rows), picked])[kept].mean()
    expected_grad = (softmax - np.eye(classes)[picked]) * kept[:, None] / kept.sum()

    local_logits = mf.tensor(logits, requires_grad=True)
    local_loss = F.cross_entropy(local_logits, mf.tensor(target))
    local_loss.backward()
    np.testing.assert_allclose(local_loss.numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(local_logits.grad.numpy(), expected_grad, rtol=1e-10, atol=1e-15)

    x = mf.tensor(logits, placement=placement, sbp=logits_sbp, requires_grad=True)
    t = mf.tensor(target, placement=placement, sbp=target_sbp)
    before = mf.comm_stats()["bytes_sent"]
    loss = F.cross_entropy(x, t)
    loss.backward()
    sent = mf.comm_stats()["bytes_sent"] - before
    local_part_bytes = x.to_local().numpy().nbytes
    assert sent < local_part_bytes / 4, f"sent {sent} bytes; this rank's logits are {local_part_bytes} bytes"
    assert x.grad.sbp == x.sbp
    np.testing.assert_allclose(loss.numpy(), local_loss.numpy(), rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), local_logits.grad.numpy(), rtol=1e-10, atol=1e-15)


@pytest.mark.parametrize("name", ["mse_loss", "l1_loss", "smooth_l1_loss", "binary_cross_entropy_with_logits",
                                  "nll_loss", "cross_entropy_smoothed"])
@pytest.mark.parametrize("sbp", [S(0), S(1), B], ids=repr)
def test_composed_losses_equal_one_device(name, sbp):
    """Losses composed of ops (nn/functional.py) on split inputs: the one-device value and
    gradient, each gradient in its input's layout."""
    rng = np.random.default_rng(11)
    a, b = rng.standard_normal((7, 5)), rng.integers(0, 2, (7, 5)).astype(np.float64)
    ranks = list(range(mf.env.get_world_size()))
    f = {"mse_loss": F.mse_loss, "l1_loss": F.l1_loss, "smooth_l1_loss": F.smooth_l1_loss,
         "binary_cross_entropy_with_logits": F.binary_cross_entropy_with_logits,
         "nll_loss": lambda x, y: F.nll_loss(F.log_softmax(x, -1), y),
         "cross_entropy_smoothed": lambda x, y: F.cross_entropy(x, y, ignore_index=3, label_smoothing=0.1)}[name]
    by_class = name in ("nll_loss", "cross_entropy_smoothed")
    target = (np.arange(7) % 5) if by_class else b
    x_local = mf.tensor(a, requires_grad=True)
    expected = f(x_local, mf.tensor(target))
    expected.backward()
    target_sbp = S(0) if by_class and sbp == S(1) else sbp
    x = global_from_parts(a, ranks, (sbp,))
    x.requires_grad_()
    got = f(x, global_from_parts(target, ranks, (target_sbp,)))
    got.backward()
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-12)
    assert x.grad.sbp == x.sbp
    np.testing.assert_allclose(x.grad.numpy(), x_local.grad.numpy(), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("mesh", ["one", "world", "2x2"])
def test_clip_grad_norm_of_any_sbp_is_the_one_device_norm_and_raises_together_on_a_nonfinite_one(mesh):
    """The 2-norm's fused sums of squares over gradients split on either dim (unevenly),
    replicated and partial, on one rank, a line of ranks and a 2x2 mesh: the one-device norm
    and clipped gradients (torch's formula), each gradient keeping its SBP, one collective
    for the norm whatever the count of gradients; a NaN in one rank's shard raises on every
    rank with error_if_nonfinite, leaving the gradients, and clip_grad_value_ clamps each in
    its SBP."""
    ranks = [0] if mesh == "one" else mesh_ranks(mesh)
    placement = mf.placement("cpu", ranks=ranks)
    ndim = np.array(ranks).ndim
    rng = np.random.default_rng(8)
    shapes = [(5, 3), (3, 7), (4,), (6, 2), ()]
    sbps = [S(0), S(1), B, P, B]
    grads = [rng.standard_normal(s) for s in shapes]

    def spread():
        params = []
        for g, sbp in zip(grads, sbps):
            p = mf.zeros(*g.shape, dtype=mf.float64, placement=placement, sbp=(B,) * ndim).requires_grad_()
            layout = (sbp,) * ndim if sbp != P or ndim == 1 else (B, P)
            p.grad = mf.tensor(g).to_global(placement, (B,) * ndim).to_global(sbp=layout)
            params.append(p)
        return params

    norm = np.sqrt(sum(np.sum(g * g) for g in grads))
    params = spread()
    layouts = [p.grad.sbp for p in params]
    got = mf.nn.utils.clip_grad_norm_(params, norm / 3)
    if mf.env.get_rank() in np.array(ranks).ravel():  # the others hold no part of it
        assert float(got) == pytest.approx(norm, rel=1e-12)
    for p, g, layout in zip(params, grads, layouts):
        assert p.grad.sbp == layout
        np.testing.assert_allclose(p.grad.numpy(), g * (norm / 3 / (norm + 1e-6)), rtol=1e-12)
    unreduced = [i for i, sbp in enumerate(sbps) if sbp != P]
    few = [spread()[i] for i in unreduced]
    many = [p for _ in range(10) for i, p in enumerate(spread()) if i in unreduced]
    _, issued = collectives(lambda: mf.nn.utils.clip_grad_norm_(few, 1.0))
    _, more = collectives(lambda: mf.nn.utils.clip_grad_norm_(many, 1.0))
    assert more == issued <= ndim  # the norm's reduction alone (one per mesh axis), for 4 gradients as for 40

    params = spread()
    mf.nn.utils.clip_grad_value_(params, 0.5)
    for p, g, layout in zip(params, grads, layouts):
        assert p.grad.sbp == layout
        np.testing.assert_array_equal(p.grad.numpy(), np.clip(g, -0.5, 0.5))

    grads[0][4, 2] = np.nan  # the last row: the last rank's shard
    params = spread()
    with pytest.raises(RuntimeError, match="non-finite"):
        mf.nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True)
    for p, g in zip(params, grads):
        np.testing.assert_array_equal(p.grad.numpy(), g)


@pytest.mark.parametrize("norm_type", [1.0, float("inf")])
def test_clip_grad_norm_of_other_orders_sees_the_one_device_norm(norm_type):
    placement = mf.placement("cpu", ranks=list(range(mf.env.get_world_size())))
    rng = np.random.default_rng(3)
    values = [rng.standard_normal((5, 3)), rng.standard_normal(3)]
    grads = [rng.standard_normal((5, 3)), rng.standard_normal(3)]
    local = [mf.tensor(v, requires_grad=True) for v in values]
    spread = [mf.tensor(v).to_global(placement, B).to_global(sbp=s).requires_grad_() for v, s in zip(values, [S(0), B])]
    for ps in (local, spread):
        for p, g in zip(ps, grads):
            p.grad = mf.tensor(g).to_global(placement, B).to_global(sbp=p.sbp) if p.is_global else mf.tensor(g)
    want = mf.nn.utils.clip_grad_norm_(local, 0.5, norm_type)
    got = mf.nn.utils.clip_grad_norm_(spread, 0.5, norm_type)
    assert float(got) == pytest.approx(float(want), rel=1e-12)
    for p, q in zip(local, spread):
        np.testing.assert_allclose(q.grad.numpy(), p.grad.numpy(), rtol=1e-12)
