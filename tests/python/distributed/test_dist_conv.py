"""Convolutional layers on global tensors (2 and 4 ranks, meshes [2], [4] and [2, 2]): conv2d and
conv3d data parallel (batch split, weight broadcast), output-channel parallel (weight split) and
input-channel parallel (both split: a partial sum); pooling and pad on a split batch or
channel dim (2-d and 3-d); conv_transpose3d on a split batch; batch_norm with synchronized
(default) and per-rank (local_stats) statistics; each equal to one device, gradients in their inputs' layouts. Then a small CNN (two Conv2d,
BatchNorm2d, pooling, Linear) trained data parallel equals the same training on one device
and its loss falls. Uneven splits: batches of 5 and channel counts of 3 and 5 over 2 and 4.
"""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from meshflow import nn
from gradcheck import check_global_gradients, check_gradients

S, B, P = mf.sbp.split, mf.sbp.broadcast, mf.sbp.partial_sum


def mesh(kind):
    world = mf.env.get_world_size()
    if kind == "2x2":
        if world < 4:
            pytest.skip(f"needs 4 ranks, the world has {world}")
        return mf.placement("cpu", ranks=[[0, 1], [2, 3]])
    if world < kind:
        pytest.skip(f"needs {kind} ranks, the world has {world}")
    return mf.placement("cpu", ranks=list(range(kind)))


def values(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def on(value, placement, sbp):
    return mf.tensor(value, placement=placement, sbp=sbp)


CONV_KW = dict(stride=(2, 1), padding=1, dilation=(1, 2))

# (mesh, x's SBP, w's SBP, the output's): data, output-channel and input-channel parallel, and
# on [2, 2] data parallel on one axis with each of the others on the other.
CONV_LAYOUTS = [
    (2, (S(0),), (B,), (S(0),)), (4, (S(0),), (B,), (S(0),)),
    (2, (B,), (S(0),), (S(1),)), (4, (B,), (S(0),), (S(1),)),
    (2, (S(1),), (S(1),), (P,)), (4, (S(1),), (S(1),), (P,)),
    ("2x2", (S(0), B), (B, S(0)), (S(0), S(1))), ("2x2", (S(0), S(1)), (B, S(1)), (S(0), P)),
]


@pytest.mark.parametrize("kind,x_sbp,w_sbp,y_sbp", CONV_LAYOUTS)
def test_conv2d_layouts_equal_one_device(kind, x_sbp, w_sbp, y_sbp):
    p = mesh(kind)
    x, w = values(5, 3, 6, 5, seed=1), values(5, 3, 3, 2, seed=2)
    f = lambda x, w: F.conv2d(x, w, **CONV_KW)  # noqa: E731
    expected = check_gradients(f, [x, w])
    gx, gw = on(x, p, x_sbp), on(w, p, w_sbp)
    y = f(gx, gw)
    assert y.sbp == y_sbp
    np.testing.assert_allclose(y.numpy(), f(mf.tensor(x), mf.tensor(w)).numpy(), rtol=1e-12, atol=1e-12)
    check_global_gradients(f, [gx, gw], expected)


@pytest.mark.parametrize("kind", [2, 4, "2x2"])
def test_grouped_conv_with_bias_and_conv1d_data_parallel(kind):
    p = mesh(kind)
    batch = (S(0),) if kind != "2x2" else (S(0), S(0))
    bcast = (B,) * len(batch)
    x, w, b = values(5, 4, 5, 5, seed=3), values(6, 2, 3, 3, seed=4), values(6, seed=5)
    f = lambda x, w, b: F.conv2d(x, w, b, padding="same", groups=2)  # noqa: E731
    expected = check_gradients(f, [x, w, b])
    check_global_gradients(f, [on(x, p, batch), on(w, p, bcast), on(b, p, bcast)], expected)
    x1, w1 = values(5, 3, 9, seed=6), values(4, 3, 2, seed=7)
    g = lambda x, w: F.conv1d(x, w, stride=2, padding=1)  # noqa: E731
    check_global_gradients(g, [on(x1, p, batch), on(w1, p, bcast)], check_gradients(g, [x1, w1]))


# conv3d (and the transposed one, its backward ops) on the same layouts: a batch split of 5
# over 2 and 4 ranks, output channels split, input channels split (a partial sum).
CONV3D_LAYOUTS = [
    (2, (S(0),), (B,), (S(0),)), (4, (S(0),), (B,), (S(0),)), (2, (B,), (S(0),), (S(1),)),
    (4, (S(1),), (S(1),), (P,)), ("2x2", (S(0), B), (B, S(0)), (S(0), S(1))),
]


@pytest.mark.parametrize("kind,x_sbp,w_sbp,y_sbp", CONV3D_LAYOUTS)
def test_conv3d_layouts_equal_one_device(kind, x_sbp, w_sbp, y_sbp):
    p = mesh(kind)
    x, w = values(5, 3, 3, 4, 3, seed=21), values(5, 3, 2, 2, 2, seed=22)
    f = lambda x, w: F.conv3d(x, w, stride=(1, 2, 1), padding=1, dilation=(1, 1, 2))  # noqa: E731
    expected = check_gradients(f, [x, w])
    gx, gw = on(x, p, x_sbp), on(w, p, w_sbp)
    y = f(gx, gw)
    assert y.sbp == y_sbp
    np.testing.assert_allclose(y.numpy(), f(mf.tensor(x), mf.tensor(w)).numpy(), rtol=1e-12, atol=1e-12)
    check_global_gradients(f, [gx, gw], expected)


@pytest.mark.parametrize("kind", [2, 4, "2x2"])
def test_conv_transpose3d_and_pool3d_data_parallel(kind):
    p = mesh(kind)
    batch = (S(0),) if kind != "2x2" else (S(0), S(0))
    bcast = (B,) * len(batch)
    x, w = values(5, 4, 3, 3, 2, seed=23), values(4, 3, 2, 2, 2, seed=24)
    f = lambda x, w: F.conv_transpose3d(x, w, stride=2, padding=1, groups=2)  # noqa: E731
    check_global_gradients(f, [on(x, p, batch), on(w, p, bcast)], check_gradients(f, [x, w]))
    x3 = values(5, 3, 4, 5, 4, seed=25)
    for g in (lambda x: F.max_pool3d(x, 2, stride=(1, 2, 2), padding=1, ceil_mode=True),
              lambda x: F.avg_pool3d(x, (2, 3, 2), padding=(1, 1, 0), count_include_pad=False),
              lambda x: F.adaptive_avg_pool3d(x, (2, 3, 3)), lambda x: F.adaptive_max_pool3d(x, 2)):
        gx = on(x3, p, batch)
        assert g(gx).sbp == batch
        np.testing.assert_allclose(g(gx).numpy(), g(mf.tensor(x3)).numpy(), rtol=1e-12)
        check_global_gradients(g, [gx], check_gradients(g, [x3]))


POOLS = {
    "max_pool2d": lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True),
    "avg_pool2d": lambda x: F.avg_pool2d(x, (2, 3), (1, 2), 1, count_include_pad=False),
    "adaptive_avg_pool2d": lambda x: F.adaptive_avg_pool2d(x, (3, 2)),
    "adaptive_max_pool2d": lambda x: F.adaptive_max_pool2d(x, (3, 2)),
    "pad": lambda x: F.pad(x, (1, 2, 0, 1), value=0.5),
    "pad_reflect": lambda x: F.pad(x, (2, 1, 1, 0), mode="reflect"),
    "pad_replicate": lambda x: F.pad(x, (0, 2, 1, 3), mode="replicate"),
    "interpolate": lambda x: F.interpolate(x, scale_factor=(1.5, 0.7)),
}


@pytest.mark.parametrize("name", sorted(POOLS))
@pytest.mark.parametrize("kind,sbp", [(2, (S(0),)), (4, (S(1),)), ("2x2", (S(0), S(1)))])
def test_pooling_and_pad_keep_batch_and_channel_splits(name, kind, sbp):
    p = mesh(kind)
    f = POOLS[name]
    x = values(5, 5, 7, 6, seed=8)
    expected = check_gradients(f, [x])
    gx = on(x, p, sbp)
    y = f(gx)
    assert y.sbp == sbp
    np.testing.assert_allclose(y.numpy(), f(mf.tensor(x)).numpy(), rtol=1e-12)
    check_global_gradients(f, [gx], expected)


def np_batch_norm(x, eps=1e-5):
    dims = (0,) + tuple(range(2, x.ndim))
    return (x - x.mean(dims, keepdims=True)) / np.sqrt(x.var(dims, keepdims=True) + eps)


@pytest.mark.parametrize("kind", [2, 4, "2x2"])
def test_batch_norm_statistics_are_synchronized(kind):
    p = mesh(kind)
    batch = (S(0),) if kind != "2x2" else (S(0), S(0))
    bcast = (B,) * len(batch)
    x, w, b = values(5, 3, 2, 3, seed=9), values(3, seed=10), values(3, seed=11)
    f = lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True)  # noqa: E731
    expected = check_gradients(f, [x, w, b])
    gx = on(x, p, batch)
    y = f(gx, on(w, p, bcast), on(b, p, bcast))
    np.testing.assert_allclose(y.numpy(), np_batch_norm(x) * w.reshape(1, 3, 1, 1) + b.reshape(1, 3, 1, 1),
                               rtol=1e-10, atol=1e-12)
    check_global_gradients(f, [gx, on(w, p, bcast), on(b, p, bcast)], expected)
    # The module's running statistics: the one-device values.
    local, dist = nn.BatchNorm2d(3), nn.BatchNorm2d(3).to_global(p, bcast)
    x32 = x.astype(np.float32)
    local(mf.tensor(x32))
    dist(on(x32, p, batch))
    np.testing.assert_allclose(dist.running_mean.numpy(), local.running_mean.numpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(dist.running_var.numpy(), local.running_var.numpy(), rtol=1e-6, atol=1e-7)
    dist.eval(), local.eval()
    np.testing.assert_allclose(dist(on(x32, p, batch)).numpy(), local(mf.tensor(x32)).numpy(), rtol=1e-6,
                               atol=1e-6)


@pytest.mark.parametrize("kind", [2, 4, "2x2"])
def test_batch_norm_local_stats_are_per_rank(kind):
    p = mesh(kind)
    batch = (S(0),) if kind != "2x2" else (S(0), S(0))
    parts = 4 if kind == "2x2" else kind
    x = values(2 * parts, 3, 2, 2, seed=12)
    m = nn.BatchNorm2d(3, affine=False, local_stats=True, momentum=0.5)
    m.running_mean.data = mf.cast(m.running_mean, mf.float64)
    m.running_var.data = mf.cast(m.running_var, mf.float64)
    y = m(on(x, p, batch))
    chunks = np.split(x, parts)
    np.testing.assert_allclose(y.numpy(), np.concatenate([np_batch_norm(c) for c in chunks]), rtol=1e-10,
                               atol=1e-12)
    means = np.mean([c.mean((0, 2, 3)) for c in chunks], axis=0)
    variances = np.mean([c.var((0, 2, 3), ddof=1) for c in chunks], axis=0)
    np.testing.assert_allclose(m.running_mean.numpy(), 0.5 * means, rtol=1e-10)
    np.testing.assert_allclose(m.running_var.numpy(), 0.5 + 0.5 * variances, rtol=1e-10)
    with pytest.raises(ValueError, match="local_stats with a batch of 5"):
        m(on(values(5, 3, 2, 2), p, batch))
    # Converted to synchronized statistics: the whole batch's.
    synced = nn.SyncBatchNorm.convert_sync_batchnorm(nn.Sequential(m))[0]
    assert type(synced) is nn.SyncBatchNorm and synced.running_mean is m.running_mean
    np.testing.assert_allclose(synced(on(x, p, batch)).numpy(), np_batch_norm(x), rtol=1e-10, atol=1e-12)


# ---- A small CNN trained data parallel

BATCH, STEPS = 8, 4


def make_cnn():
    mf.manual_seed(0)
    return nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(4, 6, 3, padding="same"), nn.BatchNorm2d(6), nn.ReLU(), nn.AvgPool2d(2),
                         nn.Flatten(), nn.Linear(6 * 2 * 2, 3))


def train(model, x, y, placement=None, batch_sbp=None):
    if placement is not None:
        bcast = (B,) * len(batch_sbp)
        model.to_global(placement, bcast)
        x, y = on(x, placement, batch_sbp), on(y, placement, batch_sbp)
    else:
        x, y = mf.tensor(x), mf.tensor(y)
    opt = mf.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(STEPS):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


@pytest.mark.parametrize("kind", [2, 4, "2x2"])
def test_small_cnn_data_parallel_equals_one_device(kind):
    p = mesh(kind)
    batch = (S(0),) if kind != "2x2" else (S(0), S(0))
    rng = np.random.default_rng(13)
    x = rng.standard_normal((BATCH, 2, 8, 8)).astype(np.float32)
    y = (np.arange(BATCH) % 3).astype(np.int64)
    one, dist = make_cnn(), make_cnn()
    want = train(one, x, y)
    got = train(dist, x, y, p, batch)
    assert want[-1] < want[0], want
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    for (name, a), (_, b) in zip(one.named_parameters(), dist.named_parameters()):
        assert b.sbp == (B,) * len(batch)
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-5, err_msg=name)
    for name in ("1", "5"):  # the BatchNorm2d layers' running statistics
        for buffer in ("running_mean", "running_var"):
            np.testing.assert_allclose(getattr(dist[int(name)], buffer).numpy(),
                                       getattr(one[int(name)], buffer).numpy(), rtol=1e-5, atol=1e-6)
