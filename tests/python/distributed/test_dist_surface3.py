"""Issue 37's third round on global tensors, equal to one device: add/sub's alpha, nansum /
nanmean, masked_scatter, scatter_reduce('sum'), circular padding, lp_pool2d, grid_sample and
affine_grid with the batch (or channels) split, values and gradients."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F

from global_check import MESHES, B, S, _placement, _same_as_local, _sbp  # noqa: F401


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_elementwise_and_reductions_on_global_tensors(name, ranks, world):
    p = _placement(ranks, world)
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((6, 5)), rng.standard_normal((6, 5))  # 6 rows: uneven on 4 ranks
    _same_as_local(lambda a, b: mf.add(a, b, alpha=2.5), [x, y], p, [0, 0])
    _same_as_local(lambda a, b: a.sub(b, alpha=-3), [x, y], p, [1, None])
    x[1, 2] = x[4, 0] = np.nan
    _same_as_local(lambda a: mf.nansum(a, 1), [x], p, [0])
    _same_as_local(lambda a: mf.nanmean(a, 0), [x], p, [0])
    _same_as_local(lambda a: mf.nansum(a), [x], p, [1])
    mask = rng.random((6, 5)) > 0.5
    _same_as_local(lambda a, m, s: mf.masked_scatter(a, m, s), [y, mask, np.arange(40.0)], p, [0, 0, None])
    index = rng.integers(0, 6, (4, 5))
    _same_as_local(lambda a, i, s: mf.scatter_reduce(a, 0, i, s, "sum"), [y, index, rng.standard_normal((4, 5))],
                   p, [1, 1, 1])


@pytest.mark.parametrize("name, ranks", MESHES, ids=[m[0] for m in MESHES])
def test_layers_on_global_tensors(name, ranks, world):
    p = _placement(ranks, world)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((6, 3, 5, 6))
    _same_as_local(lambda t: F.pad(t, (1, 2, 2, 1), mode="circular"), [x], p, [0])
    _same_as_local(lambda t: F.pad(t, (1, 2, 2, 1), mode="circular"), [x], p, [1])
    _same_as_local(lambda t: F.lp_pool2d(t.abs() + 0.1, 2, 2), [x], p, [0])
    theta = rng.standard_normal((6, 2, 3)) * 0.8
    _same_as_local(lambda t: F.affine_grid(t, [6, 3, 4, 7]), [theta], p, [0])
    grid = rng.uniform(-1.2, 1.2, (6, 4, 7, 2))
    for padding_mode in ("zeros", "reflection"):
        _same_as_local(lambda t, g: F.grid_sample(t, g, padding_mode=padding_mode), [x, grid], p, [0, 0])
