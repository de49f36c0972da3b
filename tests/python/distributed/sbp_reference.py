"""NumPy reference for CONCEPTS.md section 2: which part of the logical tensor each rank holds.

Everything here is deterministic, so every rank computes the same parts for every coordinate.
"""
import itertools

import numpy as np

import meshflow as mf

S, B = mf.sbp.split, mf.sbp.broadcast
P, PMAX, PMIN = mf.sbp.partial_sum, mf.sbp.partial_max, mf.sbp.partial_min


def sbps_1d(ndim):
    """Every 1-d SBP for a tensor of `ndim` dims: S(d) for each dim, B, P, P(max), P(min)."""
    return [S(d) for d in range(ndim)] + [B, P, PMAX, PMIN]


def nd_sbps(ndim, axes):
    """Every N-d SBP (a tuple, one entry per hierarchy axis)."""
    return list(itertools.product(sbps_1d(ndim), repeat=axes))


def hierarchy_of(ranks):
    """[2, 2] for [[0, 1], [2, 3]]; [4] for [0, 1, 2, 3]."""
    return list(np.array(ranks).shape)


def coordinates(hierarchy):
    """Every coordinate of a hierarchy, in parallel-id (row-major) order."""
    return list(itertools.product(*[range(n) for n in hierarchy]))


def coordinate_of(ranks, rank):
    """The coordinate of `rank` in the N-d `ranks`, or None when it is not in the placement."""
    where = np.argwhere(np.array(ranks) == rank)
    return tuple(int(i) for i in where[0]) if len(where) else None


def balanced_range(n, k, i):
    """Part i of n elements split into k parts: the first n % k parts have one more element."""
    start = i * (n // k) + min(i, n % k)
    return start, start + n // k + (1 if i < n % k else 0)


def local_slices(shape, hierarchy, nd_sbp, coord):
    """The slices of the logical tensor that the rank at `coord` holds, outermost axis first."""
    bounds = [[0, n] for n in shape]
    for parts, sbp, i in zip(hierarchy, nd_sbp, coord):
        if sbp.is_split:
            lo, hi = bounds[sbp.dim]
            start, stop = balanced_range(hi - lo, parts, i)
            bounds[sbp.dim] = [lo + start, lo + stop]
    return tuple(slice(lo, hi) for lo, hi in bounds)


def local_shape(shape, hierarchy, nd_sbp, coord):
    return tuple(s.stop - s.start for s in local_slices(shape, hierarchy, nd_sbp, coord))


def _children(value, parts, sbp, rng):
    """The `parts` values that the sub-groups along one axis hold for `value` with `sbp`.

    Partial values are non-trivial: sum parts differ from the value (coordinate 0 holds the
    value minus the others' noise), max/min parts are below/above it except, per element,
    at one randomly chosen coordinate. Noise is small integers, so every dtype is exact.
    """
    if sbp.is_split:
        return [value[(slice(None),) * sbp.dim + (slice(*balanced_range(value.shape[sbp.dim], parts, i)),)]
                for i in range(parts)]
    if sbp == B:
        return [value.copy() for _ in range(parts)]
    if value.dtype == np.bool_:
        # Sums and maxima of bools are ors, minima ands: one holder per element has the value,
        # the others the identity (False, or True for min).
        holder = np.zeros(value.shape, int) if sbp == P else rng.integers(0, parts, value.shape)
        return [np.where(holder == i, value, sbp == PMIN) for i in range(parts)]
    if sbp == P:
        noise = [rng.integers(-3, 4, value.shape).astype(value.dtype) for _ in range(parts - 1)]
        return [value - sum(noise, np.zeros_like(value))] + noise
    # P(max) / P(min): a nonnegative offset everywhere except at one holder per element.
    holder = rng.integers(0, parts, value.shape)
    sign = -1 if sbp == PMAX else 1
    # In the value's dtype (NumPy 1 makes uint8 - offsets int16).
    return [(value + sign * np.where(holder == i, 0, rng.integers(1, 5, value.shape)).astype(value.dtype))
            .astype(value.dtype) for i in range(parts)]


def local_parts(value, hierarchy, nd_sbp, seed=0):
    """{coordinate: local array} such that the parts form `value` with `nd_sbp` (section 2).

    Axes apply outermost first: each sub-group's value is divided among the next axis.
    """
    rng = np.random.default_rng(seed)
    level = {(): value}
    broadcast_axes = []
    for axis, (parts, sbp) in enumerate(zip(hierarchy, nd_sbp)):
        # Replicas along broadcast axes hold equal parts (the layout's invariant): their
        # subtrees are cut once, by the coordinates along the other axes.
        cut = {}
        for prefix, v in level.items():
            key = tuple(c for a, c in enumerate(prefix) if a not in broadcast_axes)
            if key not in cut:
                cut[key] = _children(v, parts, sbp, rng)
        level = {prefix + (i,): child for prefix in level
                 for i, child in enumerate(cut[tuple(c for a, c in enumerate(prefix) if a not in broadcast_axes)])}
        if sbp == mf.sbp.broadcast:
            broadcast_axes.append(axis)
    return {c: np.ascontiguousarray(v) for c, v in level.items()}


def global_from_parts(value, ranks, nd_sbp, seed=0):
    """A global tensor on placement `ranks` with value `value`, built from this rank's part.

    Ranks outside the placement pass an empty tensor of the right ndim and dtype.
    """
    placement = mf.placement("cpu", ranks=ranks)
    coord = coordinate_of(ranks, mf.env.get_rank())
    if coord is None:
        mine = np.zeros((0,) * value.ndim, value.dtype)
    else:
        mine = local_parts(value, hierarchy_of(ranks), nd_sbp, seed)[coord]
    return mf.tensor(mine).to_global(placement=placement, sbp=nd_sbp)
