"""One check for ops on global tensors, shared by the test files of issue 37's surface: f on
global tensors, each input split on a dim (or broadcast), on the meshes [2], [4] and [2, 2]
(skipped where the world is smaller), equals f on local tensors, values and gradients."""
import numpy as np
import pytest

import meshflow as mf

S, B = mf.sbp.split, mf.sbp.broadcast
MESHES = [("2", [0, 1]), ("4", [0, 1, 2, 3]), ("2x2", [[0, 1], [2, 3]])]


def _placement(ranks, world):
    if np.array(ranks).size > world:
        pytest.skip(f"needs {np.array(ranks).size} ranks")
    return mf.placement("cpu", ranks=ranks)


def _sbp(p, dim):
    return [S(dim)] + [B] * (len(p.hierarchy) - 1) if dim is not None else [B] * len(p.hierarchy)


def _same_as_local(f, arrays, p, dims, tol=1e-12):
    """f on global tensors (arrays[k] split on dims[k], or broadcast) equals f on local ones,
    and so do the gradients of its float inputs, each in its input's layout."""
    local = [mf.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
    glob = [mf.tensor(a, placement=p, sbp=_sbp(p, d)) for a, d in zip(arrays, dims)]
    for t in glob:
        t.requires_grad = t.dtype.is_floating_point
    want, got = f(*local), f(*glob)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=tol, atol=tol)
    w = np.random.default_rng(3).standard_normal(tuple(want.shape))
    (want * mf.tensor(w)).sum().backward()
    (got * mf.tensor(w, placement=p, sbp=_sbp(p, None))).sum().backward()
    for a, b in zip(local, glob):
        if a.grad is not None:
            assert b.grad is not None and b.grad.sbp == b.sbp and b.grad.placement == b.placement
            np.testing.assert_allclose(b.grad.numpy(), a.grad.numpy(), rtol=tol, atol=tol)
