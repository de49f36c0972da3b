"""meshflow.nn.functional, third round (issue 37): embedding_bag, rrelu, alpha_dropout and
feature_alpha_dropout, lp_pool1d / lp_pool2d, max_unpool1d / max_unpool2d, pad's 'circular'
mode, gumbel_softmax, pdist, affine_grid and grid_sample (4-d), each as torch defines it.

All are compositions of existing ops (index_select / scatter at index vectors
computed on the host from offsets or shapes, elementwise ops, reductions, the pools), so their
gradients are those ops'; but embedding_bag of local tensors, one op. Global bags' offsets are
read on the host (they decide the composition's shapes)."""
import itertools
import math
import numbers

import numpy as _np

from .._ops_creation import linspace, rand_like, zeros
from .._ops_elementwise import where
from .._ops_index import _placed_like, index_select
from .._ops_math import fmod
from .._ops_shape import cat
from .._ops_surface import triu_indices
from .._tensor import Tensor, apply, tensor


def _host_ints(t, what):
    """t's logical value on the host (a global one's is read on every rank, as the shapes it
    decides must be the same everywhere)."""
    if not isinstance(t, Tensor) or t.dtype.name not in ("int32", "int64"):
        raise TypeError(f"embedding_bag: {what} must be an int32 or int64 tensor")
    return t._numpy().astype(_np.int64) if t.is_global else t.cpu()._numpy().astype(_np.int64)


def _whole(t):
    """Whether t is absent, local or global on one device (graph mode's local tensors): whole
    where the op embedding_bag (whose signatures are all-broadcast) sees it."""
    return t is None or not t.is_global or all(d == 1 for d in t.placement.hierarchy)


def _padded_bags(input, offsets, include_last_offset):
    """embedding_bag's bags as rows: (positions [bags, longest] into input's flat indices, or
    None for 2-d input, whose rows are the bags already; which slots hold an index, a host
    bool array or None when all do). Padding slots point at index 0 and are left out by the
    mask."""
    if input.ndim == 2:
        return None, None
    starts = _host_ints(offsets, "offsets").reshape(-1)
    total = input.shape[0]
    if starts.size and (starts[0] != 0 or _np.any(_np.diff(starts) < 0) or starts[-1] > total):
        raise ValueError(f"embedding_bag: offsets {starts.tolist()} must start at 0, not decrease and stay within the "
                         f"input's {total} indices")
    bounds = _np.r_[starts[:-1] if include_last_offset else starts, total]  # torch's last bag ends with input
    lengths = _np.diff(bounds)
    longest = int(lengths.max()) if lengths.size else 0
    rank = _np.arange(longest)
    valid = rank < lengths[:, None]
    return _np.where(valid, bounds[:-1, None] + rank, 0), None if valid.all() else valid


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """torch's embedding_bag: each bag's rows of `weight` reduced by `mode` ('sum', 'mean',
    'max'); bags are input's rows (2-d input) or the runs of 1-d input starting at `offsets`.
    per_sample_weights (mode 'sum') scale each row; indices equal to padding_idx are left out
    (an empty bag gives zeros).

    Local tensors (and global ones on one device: graph mode's) run the op embedding_bag,
    which reads offsets on the device (no wait for queued work). Other global ones run a
    composition: the bags laid out as rows of [bags, longest]
    indices (1-d input gathered at positions from the host's offsets), their embeddings looked
    up, the slots past a bag's end or at padding_idx masked, then reduced along the row. So
    every op has its SBP signatures: the bags split on the batch, the weight split on the
    vocabulary (partial sums) or on the columns give one device's values."""
    from ._functional_extra import _renorm_rows
    from .functional import embedding
    if mode not in ("sum", "mean", "max"):
        raise ValueError(f"embedding_bag: mode has to be one of sum, mean or max, got {mode!r}")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}')")
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding_bag: scale_grad_by_freq and sparse gradients are not supported")
    if not isinstance(input, Tensor) or input.dtype.name not in ("int32", "int64"):
        raise TypeError("embedding_bag: input must be an int32 or int64 tensor")
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError("embedding_bag: offsets has to be None if input is 2D")
    elif input.ndim != 1:
        raise ValueError(f"embedding_bag: input has to be 1D or 2D Tensor, but got Tensor of dimension {input.ndim}")
    elif offsets is None:
        raise ValueError("embedding_bag: offsets has to be a 1D Tensor but got None")
    if per_sample_weights is not None and tuple(per_sample_weights.shape) != tuple(input.shape):
        raise ValueError(f"embedding_bag: per_sample_weights has shape {tuple(per_sample_weights.shape)}; expected "
                         f"input's {tuple(input.shape)}")
    if all(_whole(t) for t in (input, weight, offsets, per_sample_weights)):
        if max_norm is not None:
            _renorm_rows(weight, input, float(max_norm), float(norm_type))
        attrs = {"mode": ("sum", "mean", "max").index(mode), "include_last_offset": bool(include_last_offset),
                 "per_sample_weights": per_sample_weights is not None,
                 "padding_idx": -1 if padding_idx is None else padding_idx % weight.shape[0]}
        inputs = [input, weight] + ([offsets] if offsets is not None else []) + \
            ([per_sample_weights] if per_sample_weights is not None else [])
        return apply("embedding_bag", inputs, attrs)[0]
    positions, valid = _padded_bags(input, offsets, include_last_offset)
    if positions is not None:
        count = positions.shape[0]
        if positions.size == 0 or input.shape[0] == 0:
            return weight.new_zeros((count, weight.shape[1]))
        if valid is None:  # bags of one length, in order (a DLRM's): input's first indices as rows
            def bagged(t):
                return (t if count * positions.shape[1] == t.shape[0] else t[:positions.size]).reshape(positions.shape)
        else:
            at = _placed_like(input, tensor(positions.reshape(-1), dtype="int64"))

            def bagged(t):
                return index_select(t, 0, at).reshape(positions.shape)
        input = bagged(input)
        if per_sample_weights is not None:
            per_sample_weights = bagged(per_sample_weights)
    elif input.shape[1] == 0:
        return weight.new_zeros((input.shape[0], weight.shape[1]))
    keep = None if valid is None else _placed_like(input, tensor(valid))
    if padding_idx is not None:
        kept = input != padding_idx % weight.shape[0]
        keep = kept if keep is None else keep & kept
    rows = embedding(input, weight, max_norm=max_norm, norm_type=norm_type)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.unsqueeze(-1)
    if keep is None:  # every slot holds an index
        return rows.max(1).values if mode == "max" else rows.sum(1) if mode == "sum" else rows.mean(1)
    outside = ~keep.unsqueeze(-1)
    if mode == "max":
        # max (not amax): at a tie the gradient goes to the bag's first row alone, as torch's
        return where(keep.any(1).unsqueeze(1), rows.masked_fill(outside, float("-inf")).max(1).values, 0.0)
    out = rows.masked_fill(outside, 0.0).sum(1)
    if mode == "mean":
        out = out / keep.sum(1).clamp(min=1).unsqueeze(1).to(out.dtype)
    return out


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """x where x > 0, else a * x (also the gradient at 0, as torch's): a drawn uniform in
    [lower, upper] per element in training, (lower + upper) / 2 otherwise."""
    if training:
        slope = rand_like(input) * (upper - lower) + lower
    else:
        slope = (lower + upper) / 2
    out = where(input > 0, input, input * slope)
    return input.copy_(out) if inplace else out


_SELU_ALPHA = 1.7580993408473766  # selu's scale * alpha: the value alpha dropout drops to (negated)


def _alpha_dropout(name, input, p, training, inplace, feature):
    if not 0 <= p <= 1:
        raise ValueError(f"{name}: dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    if p == 1:
        out = input * 0
    else:
        shape = list(input.shape[:2]) + [1] * (input.ndim - 2) if feature else list(input.shape)
        keep = (rand_like(zeros(*shape, dtype=input.dtype, device=input.device)) >= p).to(input.dtype)
        a = 1.0 / ((_SELU_ALPHA ** 2 * p + 1) * (1 - p)) ** 0.5
        out = input * (keep * a) + ((keep - 1) * (_SELU_ALPHA * a) + _SELU_ALPHA * a * p)
    return input.copy_(out) if inplace else out


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout that keeps selu's mean and variance: dropped elements take -selu's alpha * scale,
    then an affine map restores the moments (torch's)."""
    return _alpha_dropout("alpha_dropout", input, p, training, inplace, False)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """alpha_dropout of whole channels (dims 0 and 1 drawn, the rest shared)."""
    return _alpha_dropout("feature_alpha_dropout", input, p, training, inplace, True)


def _lp_pool(pool, input, norm_type, kernel_size, stride, ceil_mode, dims):
    kernel = (kernel_size,) * dims if isinstance(kernel_size, numbers.Integral) else tuple(kernel_size)
    area = 1
    for k in kernel:
        area *= k
    out = pool(input ** norm_type, kernel_size, stride, 0, ceil_mode)
    return ((out.sign() * out.abs().relu()) * area) ** (1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The norm_type-norm over each window: (sum of x ** p) ** (1 / p), as torch's."""
    from .functional import avg_pool1d
    return _lp_pool(avg_pool1d, input, float(norm_type), kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The norm_type-norm over each 2-d window: (sum of x ** p) ** (1 / p), as torch's."""
    from .functional import avg_pool2d
    return _lp_pool(avg_pool2d, input, float(norm_type), kernel_size, stride, ceil_mode, 2)


def _max_unpool(name, input, indices, kernel_size, stride, padding, output_size, dims):
    def each(v):
        return (v,) * dims if isinstance(v, numbers.Integral) else tuple(v)
    kernel, pad = each(kernel_size), each(padding)
    step = kernel if stride is None else each(stride)
    spatial = list(input.shape[-dims:])
    default = [(spatial[i] - 1) * step[i] - 2 * pad[i] + kernel[i] for i in range(dims)]
    size = default if output_size is None else [int(s) for s in list(output_size)[-dims:]]
    if tuple(indices.shape) != tuple(input.shape):
        raise ValueError(f"{name}: indices have shape {tuple(indices.shape)}; expected input's {tuple(input.shape)}")
    lead = list(input.shape[:-dims])
    plane = 1
    for s in size:
        plane *= s
    flat_in = input.reshape(lead + [-1])
    out = zeros(*(lead + [plane]), dtype=input.dtype, device=input.device)
    out = out.scatter(len(lead), indices.reshape(lead + [-1]).to("int64"), flat_in)
    return out.reshape(lead + size)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool1d: each value written at its index (from return_indices=True)
    in a zero tensor of the pooled input's size."""
    return _max_unpool("max_unpool1d", input, indices, kernel_size, stride, padding, output_size, 1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool2d: each value written at its flat index in its plane (from
    return_indices=True) in a zero tensor of the pooled input's size."""
    return _max_unpool("max_unpool2d", input, indices, kernel_size, stride, padding, output_size, 2)


def circular_pad(input, pad):
    """F.pad's mode 'circular': each padded dim wraps around (negative pads crop), as torch's."""
    dims = len(pad) // 2
    if len(pad) % 2 or not 1 <= dims <= 3 or input.ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(f"[pad] mode 'circular' pads the last 1 to 3 dims of an input with 1 or 2 more dims; "
                                  f"got {len(pad)} pads for an input of shape {tuple(input.shape)}")
    out = input
    for i in range(dims):
        before, after = int(pad[2 * i]), int(pad[2 * i + 1])
        d = input.ndim - 1 - i
        n = out.shape[d]
        if max(before, after) > n:
            raise ValueError(f"[pad] padding {max(before, after)} of dim {d} is larger than its size {n}; circular "
                             "padding wraps around at most once")
        if before < 0:
            out, n, before = out.narrow(d, -before, n + before), n + before, 0
        if after < 0:
            out, n, after = out.narrow(d, 0, n + after), n + after, 0
        out = cat([p for p in (out.narrow(d, n - before, before), out, out.narrow(d, 0, after)) if p.shape[d]], d)
    return out


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    """softmax((logits + g) / tau) with g Gumbel(0, 1) noise; hard: the one-hot of its argmax
    in the forward pass, the soft sample's gradient (straight through)."""
    exponential = -(-rand_like(logits)).log1p()  # Exponential(1): -log(1 - u)
    gumbels = -exponential.log()
    soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return soft
    index = soft.argmax(dim, keepdim=True)
    one_hot = zeros(*logits.shape, dtype=logits.dtype, device=logits.device).scatter(dim, index, 1.0)
    return one_hot - soft.detach() + soft


def pdist(input, p=2.0):
    """The p-norm distances between every pair of input's rows i < j, in row-major order of
    the pairs ([N * (N - 1) / 2]), as torch's."""
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    n = input.shape[0]
    pairs = triu_indices(n, n, 1, device=input.device)
    diff = index_select(input, 0, pairs[0]) - index_select(input, 0, pairs[1])
    return diff.norm(p, dim=1) if diff.shape[0] else diff.sum(1)


def _base_coordinates(n, align_corners, like):
    """torch's normalized coordinates of n pixels: their centers (or, align_corners, the
    corner pixels at -1 and 1), computed as torch's (linspace, scaled by (n - 1) / n), so the
    grid has torch's bits and nearest sampling picks torch's pixel at a tie."""
    if n <= 1:
        return _placed_like(like, zeros(n, dtype=like.dtype))
    values = linspace(-1, 1, n, dtype=like.dtype)
    return _placed_like(like, values if align_corners else values * (n - 1) / n)


def affine_grid(theta, size, align_corners=False):
    """The sampling grid of the affine maps theta over an output of `size`: [N, H, W, 2] from
    theta [N, 2, 3] and size [N, C, H, W], or [N, D, H, W, 3] from theta [N, 3, 4] and size
    [N, C, D, H, W]: theta @ (x, y[, z], 1) at each output point's normalized coordinates."""
    k = len(size) - 2
    if k not in (2, 3):
        raise ValueError(f"affine_grid: expected size [N, C, H, W] or [N, C, D, H, W], got {list(size)}")
    if theta.ndim != 3 or tuple(theta.shape[1:]) != (k, k + 1):
        raise ValueError(f"affine_grid: expected theta of shape [N, {k}, {k + 1}] for a {k + 2}-d size, "
                         f"got {tuple(theta.shape)}")
    if size[0] != theta.shape[0]:
        raise ValueError(f"affine_grid: expected size [N, ...] with N = theta's {theta.shape[0]}, got {list(size)}")
    spatial = [int(v) for v in size[2:]]  # (D,) H, W: coordinate x runs along W, y along H, z along D
    t = theta.reshape(theta.shape[0], *([1] * k), k, k + 1)
    grid = None
    for axis in range(k):  # x, y, z
        n = spatial[k - 1 - axis]
        shape = [1] * (k + 2)
        shape[k - axis] = n
        term = _base_coordinates(n, align_corners, theta).reshape(shape) * t[..., axis]
        # summed in turn, rounded in torch's order (its batched matmul adds the terms one by
        # one), not a matmul whose blocking rounds otherwise
        grid = term if grid is None else grid + term
    return grid + t[..., k]


def _reflect(coordinates, twice_low, twice_high):
    """torch's reflect_coordinates: coordinates mirrored into [low, high]."""
    if twice_low == twice_high:
        return coordinates * 0
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    distance = (coordinates - low).abs()
    extra = fmod(distance, span)
    even = fmod((distance / span).floor(), 2) == 0
    return where(even, extra + low, span - extra + low)


def _unnormalized(g, size, align_corners):
    """Pixel coordinates of normalized ones, rounded as torch's CPU kernel."""
    return (g + 1) * ((size - 1) / 2) if align_corners else (g + 1) * (size / 2) - 0.5


def _padded(x, size, padding_mode, align_corners):
    """Pixel coordinates with border or reflection padding applied."""
    if padding_mode == "border":
        return x.clamp(0, size - 1)
    if padding_mode == "reflection":
        x = _reflect(x, 0, 2 * (size - 1)) if align_corners else _reflect(x, -1, 2 * size - 1).clamp(0, size - 1)
    return x


def _cubic_weights(t):
    """torch's cubic convolution weights (A = -0.75) of the four taps around offset t."""
    a = -0.75

    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=False):
    """input [N, C, H, W] sampled at grid [N, Ho, Wo, 2]'s normalized (x, y) locations, or
    input [N, C, D, H, W] at grid [N, Do, Ho, Wo, 3]'s (x, y, z) (-1 and 1 the edges: the
    corner pixels' centers with align_corners, else their outer edges), by mode 'bilinear'
    (trilinear on volumes), 'nearest' or 'bicubic' (images only); outside, padding_mode
    'zeros', 'border' or 'reflection'. Differentiable in input and (bilinear, bicubic) grid,
    as torch's."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"grid_sample: mode {mode!r}; expected 'bilinear', 'nearest' or 'bicubic'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"grid_sample: padding_mode {padding_mode!r}; expected 'zeros', 'border' or 'reflection'")
    k = input.ndim - 2
    if k not in (2, 3) or grid.ndim != input.ndim or grid.shape[-1] != k or grid.shape[0] != input.shape[0]:
        raise ValueError(f"grid_sample: expected input [N, C, H, W] and grid [N, Ho, Wo, 2], or input "
                         f"[N, C, D, H, W] and grid [N, Do, Ho, Wo, 3], got {tuple(input.shape)} and "
                         f"{tuple(grid.shape)}")
    if mode == "bicubic" and k == 3:
        raise ValueError("grid_sample: bicubic interpolation only supports 4D input")
    n, c = input.shape[:2]
    sizes = [input.shape[-1 - a] for a in range(k)]  # along x, y (, z): W, H (, D)
    out = tuple(grid.shape[1:-1])
    points = math.prod(out)
    coords = [_unnormalized(grid[..., a], sizes[a], align_corners) for a in range(k)]
    planes = input.reshape(n, c, math.prod(sizes))

    def tap(index, weight):  # index: one coordinate per axis, whole numbers
        inside, flat, stride = None, 0, 1
        for i, size in zip(index, sizes):
            within = (i >= 0) & (i <= size - 1)
            inside = within if inside is None else inside & within
            flat = flat + i.clamp(0, size - 1) * stride
            stride *= size
        flat = flat.to("int64").reshape(n, 1, points).expand(n, c, points)
        values = planes.gather(2, flat).reshape(n, c, *out)
        return values * (weight * inside.to(input.dtype)).unsqueeze(1)

    if mode == "bicubic":
        # torch's: the 4x4 taps around the unpadded location, each tap's index padded
        (x, y), (w, h) = coords, sizes
        x0, y0 = x.floor(), y.floor()
        wx, wy = _cubic_weights(x - x0), _cubic_weights(y - y0)
        rows = []
        for j in range(4):
            yj = _padded(y0 + (j - 1), h, padding_mode, align_corners)
            taps = [tap((_padded(x0 + (i - 1), w, padding_mode, align_corners), yj), wx[i]) for i in range(4)]
            rows.append((taps[0] + taps[1] + taps[2] + taps[3]) * wy[j].unsqueeze(1))
        return rows[0] + rows[1] + rows[2] + rows[3]
    coords = [_padded(v, size, padding_mode, align_corners) for v, size in zip(coords, sizes)]
    if mode == "nearest":
        return tap([v.round() for v in coords], coords[0] * 0 + 1)
    lows = [v.floor() for v in coords]
    fractions = [v - low for v, low in zip(coords, lows)]
    total = None
    # the corners in torch's order (x changing fastest), each weight a product in x, y, z order
    for corner in itertools.product((0, 1), repeat=k):
        corner = corner[::-1]
        weight = None
        for f, up in zip(fractions, corner):
            factor = f if up else 1 - f
            weight = factor if weight is None else weight * factor
        term = tap([low + up for low, up in zip(lows, corner)], weight)
        total = term if total is None else total + term
    return total


def _fractional_starts(sample, size, out, pool):
    """torch's window starts of fractional max pooling along one dim, in float32 as its
    kernel: int((i + u) alpha) - int(u alpha) for alpha = (size - pool) / (out - 1), the last
    window at the end."""
    f32 = _np.float32
    starts = _np.zeros(sample.shape + (out,), dtype=_np.int64)
    if out > 1:
        alpha = f32(size - pool) / f32(out - 1)
        i = _np.arange(out - 1, dtype=f32)
        u = sample.astype(f32)[..., None]
        starts[..., :-1] = ((i + u) * alpha).astype(_np.int64) - (u * alpha).astype(_np.int64)
    starts[..., -1] = size - pool
    return starts


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """Max pooling over kh x kw windows placed at pseudo-random fractional steps (Graham's
    fractional max pooling, as torch's): one sample u in [0, 1) per image and channel and dim
    (`_random_samples` [N, C, 2], width's first; drawn from meshflow's generator when not
    given, so those windows differ from torch's), output_size or output_ratio of the input's.
    Indices, with return_indices, are flat within each plane, as max_pool2d's."""
    from .._ops_creation import rand
    unbatched = input.ndim == 3
    x = input.unsqueeze(0) if unbatched else input
    if x.ndim != 4:
        raise ValueError(f"fractional_max_pool2d: expected a 3-d or 4-d input, got {x.ndim}-d")
    kh, kw = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
    n, c, h, w = x.shape
    if output_size is None:
        if output_ratio is None:
            raise ValueError("fractional_max_pool2d requires specifying either an output_size or an output_ratio")
        ratio = (output_ratio, output_ratio) if isinstance(output_ratio, (int, float)) else tuple(output_ratio)
        output_size = (int(h * ratio[0]), int(w * ratio[1]))
    oh, ow = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    if oh + kh - 1 > h or ow + kw - 1 > w:
        raise RuntimeError(f"fractional_max_pool2d(): pool of size {(kh, kw)} and output {(oh, ow)} are too large for "
                           f"an input of {(h, w)}: expected output + pool - 1 <= input on each dim")
    samples = _random_samples if _random_samples is not None else rand(n, c, 2, dtype=x.dtype)
    u = samples.detach().float()._numpy().reshape(n, c, 2)
    rows, cols = _fractional_starts(u[..., 1], h, oh, kh), _fractional_starts(u[..., 0], w, ow, kw)
    dy, dx = _np.meshgrid(_np.arange(kh), _np.arange(kw), indexing="ij")
    flat = ((rows[:, :, :, None, None, None] + dy) * w + cols[:, :, None, :, None, None] + dx)  # [N, C, oh, ow, kh, kw]
    from .._ops_index import _ints_like
    index = _ints_like(x, flat.reshape(n, c, oh * ow * kh * kw))
    windows = x.reshape(n, c, h * w).gather(2, index).reshape(n, c, oh, ow, kh * kw)
    values, which = windows.max(-1)
    if unbatched:
        values = values.squeeze(0)
    if not return_indices:
        return values
    indices = index.reshape(n, c, oh, ow, kh * kw).gather(4, which.unsqueeze(-1)).squeeze(-1)
    return values, indices.squeeze(0) if unbatched else indices


__all__ = ["affine_grid", "grid_sample", "fractional_max_pool2d", "embedding_bag", "rrelu", "alpha_dropout", "feature_alpha_dropout",
           "lp_pool1d", "lp_pool2d", "max_unpool1d", "max_unpool2d", "gumbel_softmax", "pdist"]
