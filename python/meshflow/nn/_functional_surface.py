"""meshflow.nn.functional, continued (issue 37): bilinear, pixel_shuffle / pixel_unshuffle,
channel_shuffle, unfold / fold (and Tensor.unfold's windows), hardshrink / softshrink,
adaptive_avg_pool1d / adaptive_max_pool1d, interpolate's 'linear', 'bilinear', 'bicubic' and 'trilinear'
modes, pairwise_distance, and the margin, ranking, Poisson, Gaussian and CTC losses, each
as torch defines it.

interpolate's linear and cubic modes are the op upsample_linear (ops/conv.cc), unfold and fold
the ops of those names there; the rest are
compositions of existing ops (reshape and permute; index_select at index vectors
computed on the host from the shapes alone; elementwise ops, reductions), so they run on every
device and layout those do, and their gradients are those ops'. The
constants they make (indices, interpolation weights) go where the input is: on its device,
or broadcast on its placement."""
import math
import numbers

import numpy as _np

from .. import _C
from .._ops_elementwise import exp, log, maximum, minimum, where
from .._ops_index import _ints_like, _placed_like, gather, index_select, one_hot
from .._ops_math import cumsum
from .._ops_shape import cat
from .._tensor import Tensor, apply, tensor
from .._inplace import _gathered_back, _viewing
from .._dtype import uint8
from .functional import _reduce, legacy_reduction  # the reduction rules every loss shares


def _values_like(x, array):
    """A tensor of x's dtype holding the NumPy array, where x is."""
    return _placed_like(x, tensor(_np.asarray(array, dtype=_np.float64), dtype=x.dtype))


def _pair(value, n, what, op):
    values = tuple(value) if isinstance(value, (tuple, list)) else (value,) * n
    if len(values) != n or not all(isinstance(v, numbers.Integral) for v in values):
        raise ValueError(f"[{op}] {what} {value!r}; expected an int or {n} ints")
    return tuple(int(v) for v in values)


# ---------------------------------------------------------------------------------------------
# Layers made of reshapes: bilinear, pixel_shuffle, pixel_unshuffle, channel_shuffle

def bilinear(input1, input2, weight, bias=None):
    """y[..., k] = input1[..., :] @ weight[k] @ input2[..., :] + bias[k], weight
    [out, in1, in2]: one matmul, then a product and a sum over in2."""
    if weight.ndim != 3 or input1.shape[-1] != weight.shape[1] or input2.shape[-1] != weight.shape[2]:
        raise ValueError(f"[bilinear] input1 {tuple(input1.shape)}, input2 {tuple(input2.shape)}, weight "
                         f"{tuple(weight.shape)}; expected weight [out, in1, in2] with in1 = input1.size(-1) and "
                         "in2 = input2.size(-1)")
    if tuple(input1.shape[:-1]) != tuple(input2.shape[:-1]):
        raise ValueError(f"[bilinear] input1 {tuple(input1.shape)} and input2 {tuple(input2.shape)}; expected the "
                         "same leading dims")
    out, in1, in2 = weight.shape
    lead = list(input1.shape[:-1])
    mixed = input1.reshape([-1, in1]) @ weight.permute(1, 0, 2).reshape([in1, out * in2])
    y = (mixed.reshape([-1, out, in2]) * input2.reshape([-1, 1, in2])).sum(-1)
    if bias is not None:
        y = y + bias
    return y.reshape(lead + [out])


def pixel_shuffle(input, upscale_factor):
    """[*, C r^2, H, W] -> [*, C, H r, W r]: channel c r^2 + i r + j lands at (h r + i, w r + j)."""
    r = int(upscale_factor)
    if input.ndim < 3 or r <= 0 or input.shape[-3] % (r * r):
        raise ValueError(f"[pixel_shuffle] input of shape {tuple(input.shape)} and upscale_factor {upscale_factor}; "
                         "expected >= 3 dims whose third from last divides by upscale_factor^2")
    *lead, c, h, w = input.shape
    n = len(lead)
    x = input.reshape(lead + [c // (r * r), r, r, h, w])
    x = x.permute(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return _C.grad_fn_as(x.reshape(lead + [c // (r * r), h * r, w * r]), "PixelShuffleBackward0", input)


def pixel_unshuffle(input, downscale_factor):
    """pixel_shuffle's inverse: [*, C, H r, W r] -> [*, C r^2, H, W]."""
    r = int(downscale_factor)
    if input.ndim < 3 or r <= 0 or input.shape[-1] % r or input.shape[-2] % r:
        raise ValueError(f"[pixel_unshuffle] input of shape {tuple(input.shape)} and downscale_factor "
                         f"{downscale_factor}; expected >= 3 dims, the last two divisible by downscale_factor")
    *lead, c, h, w = input.shape
    n = len(lead)
    x = input.reshape(lead + [c, h // r, r, w // r, r])
    x = x.permute(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return x.reshape(lead + [c * r * r, h // r, w // r])


def channel_shuffle(input, groups):
    """[N, C, *] with C = g k: channel i k + j goes to j g + i."""
    g = int(groups)
    if input.ndim < 3 or g <= 0 or input.shape[1] % g:
        raise ValueError(f"[channel_shuffle] input of shape {tuple(input.shape)} and groups {groups}; expected >= 3 "
                         "dims and channels divisible by groups")
    n, c, *rest = input.shape
    return input.reshape([n, g, c // g] + rest).transpose(1, 2).reshape([n, c] + rest)


# ---------------------------------------------------------------------------------------------
# unfold (im2col) and fold (col2im): the ops of those names (ops/conv.cc), each the other's
# gradient.

def _block_attrs(kernel_size, dilation, padding, stride, op):
    return {"kernel_size": list(_pair(kernel_size, 2, "kernel_size", op)),
            "dilation": list(_pair(dilation, 2, "dilation", op)), "padding": list(_pair(padding, 2, "padding", op)),
            "stride": list(_pair(stride, 2, "stride", op))}


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """torch's im2col: [N, C, H, W] (or [C, H, W]) -> [N, C kh kw, L], the sliding blocks as
    columns (channel-major, then kernel offset), L blocks in row-major order."""
    attrs = _block_attrs(kernel_size, dilation, padding, stride, "unfold")
    if input.ndim not in (3, 4):
        raise ValueError(f"[unfold] input of shape {tuple(input.shape)}; expected [N, C, H, W] or [C, H, W]")
    x = input if input.ndim == 4 else input.unsqueeze(0)
    out = _C.grad_fn_as(apply("unfold", [x], attrs)[0], "Im2ColBackward0", x)
    return out if input.ndim == 4 else out.squeeze(0)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """torch's col2im, unfold's adjoint: [N, C kh kw, L] (or [C kh kw, L]) -> [N, C, H, W],
    overlapping blocks summed."""
    attrs = _block_attrs(kernel_size, dilation, padding, stride, "fold")
    attrs["output_size"] = list(_pair(output_size, 2, "output_size", "fold"))
    if input.ndim not in (2, 3):
        raise ValueError(f"[fold] input of shape {tuple(input.shape)}; expected [N, C*kh*kw, L] or [C*kh*kw, L]")
    x = input if input.ndim == 3 else input.unsqueeze(0)
    out = _C.grad_fn_as(apply("fold", [x], attrs)[0], "Col2ImBackward0", x)
    return out if input.ndim == 3 else out.squeeze(0)


def _tensor_unfold(self, dimension, size, step):
    """Tensor.unfold: the windows of `size` elements every `step` along `dimension`, as a new
    last dim: one index_select, a view as torch's (writes reach self)."""
    dim = dimension % max(self.ndim, 1)
    length = self.shape[dim] if self.ndim else 1
    if size > length or size < 0 or step <= 0:
        raise RuntimeError(f"unfold: size {size} and step {step} along dim {dimension} of length {length}; expected "
                           "0 <= size <= length and step > 0")
    count = (length - size) // step + 1
    positions = (_np.arange(count)[:, None] * step + _np.arange(size)[None, :]).reshape(-1)
    x = self if self.ndim else self.reshape([1])
    picked = index_select(x, dim, _ints_like(x, positions))
    shape = list(x.shape)
    shape[dim:dim + 1] = [count, size]
    windows = picked.reshape(shape)
    if not self.ndim:
        return windows.reshape([size])
    return windows.permute(*[d for d in range(len(shape)) if d != dim + 1], dim + 1)


def _unfold_strides(base_strides, base, view, dimension, size, step):
    """torch's strides of x.unfold(...): the dim's stride times step, then the dim's stride."""
    if not base.ndim:
        return (1,)
    strides = list(base_strides)
    along = strides[dimension % base.ndim]
    strides[dimension % base.ndim] = along * step
    return (*strides, along)


Tensor.unfold = _viewing(_tensor_unfold, _gathered_back(_tensor_unfold), strides=_unfold_strides)


def _as_2d(op, input, output_size):
    if input.ndim not in (2, 3):
        raise ValueError(f"[{op}] input of shape {tuple(input.shape)}; expected [N, C, L] or [C, L]")
    size = output_size[0] if isinstance(output_size, (tuple, list)) else output_size
    return input.unsqueeze(-2), (1, int(size))


def adaptive_avg_pool1d(input, output_size):
    """adaptive_avg_pool2d over [.., 1, L]: window o covers [floor(o L / out), ceil((o + 1) L / out))."""
    from ._functional_conv import adaptive_avg_pool2d
    x, size = _as_2d("adaptive_avg_pool1d", input, output_size)
    return adaptive_avg_pool2d(x, size).squeeze(-2)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Maxima over adaptive_avg_pool1d's windows; with return_indices, also their positions."""
    from ._functional_conv import adaptive_max_pool2d
    x, size = _as_2d("adaptive_max_pool1d", input, output_size)
    y, indices = adaptive_max_pool2d(x, size, return_indices=True)
    return (y.squeeze(-2), indices.squeeze(-2)) if return_indices else y.squeeze(-2)


def hardshrink(input, lambd=0.5):
    """input where |input| > lambd, else 0."""
    return where(input.abs() > lambd, input, input * 0)


def softshrink(input, lambd=0.5):
    """input - lambd above lambd, input + lambd below -lambd, else 0."""
    return where(input > lambd, input - lambd, where(input < -lambd, input + lambd, input * 0))


# ---------------------------------------------------------------------------------------------
# interpolate's interpolating modes: separable, one spatial dim at a time, each a weighted sum
# of index_selects at taps computed on the host (torch's source coordinates).

_MODE_DIMS = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}


def _source(out_size, in_size, scale, align_corners, cubic):
    """torch's area_pixel_compute_source_index for every output position."""
    dst = _np.arange(out_size, dtype=_np.float64)
    if align_corners:
        return dst * ((in_size - 1) / (out_size - 1) if out_size > 1 else 0.0)
    ratio = 1.0 / scale if scale is not None and scale > 0 else in_size / out_size
    src = ratio * (dst + 0.5) - 0.5
    return src if cubic else _np.maximum(src, 0.0)


def _cubic_weights(t, a=-0.75):
    """torch's get_cubic_upsample_coefficients: the weights of taps -1, 0, 1, 2."""
    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _taps(out_size, in_size, scale, align_corners, cubic):
    """[(indices, weights)] of one spatial dim."""
    src = _source(out_size, in_size, scale, align_corners, cubic)
    base = _np.floor(src).astype(_np.int64)
    t = src - base
    if cubic:
        return [(_np.clip(base - 1 + k, 0, in_size - 1), w) for k, w in enumerate(_cubic_weights(t))]
    upper = base + (base < in_size - 1)
    return [(base, 1.0 - t), (upper, t)]


def _nearest_exact_taps(out_size, in_size, scale):
    """torch's nearest_neighbor_exact_compute_source_index, in float32 as its kernel: output o
    reads input min(floor((o + 0.5) * scale), in - 1), one tap of weight None (no product)."""
    step = _np.float32(in_size / out_size if scale is None else 1.0 / scale)
    src = _np.floor((_np.arange(out_size, dtype=_np.float32) + _np.float32(0.5)) * step).astype(_np.int64)
    return [(_np.minimum(src, in_size - 1), None)]


def _area_taps(out_size, in_size):
    """Adaptive average pooling's windows (torch's 'area'): output o averages input
    [floor(o in / out), ceil((o + 1) in / out)); windows padded to the longest with weight 0."""
    o = _np.arange(out_size)
    start = (o * in_size) // out_size
    end = -((-(o + 1) * in_size) // out_size)
    width = end - start
    return [(_np.minimum(start + k, end - 1), _np.where(k < width, 1.0 / width, 0.0)) for k in range(int(width.max()))]


def _antialias_taps(out_size, in_size, scale, align_corners, cubic, antialias=True):
    """torch's separable (PIL's) bilinear / bicubic weights: a triangle or cubic filter
    (a = -0.5 with `antialias`, widened by the downscale factor; torch's a = -0.75 and its
    plain width without, as its uint8 kernel), clipped at the borders and normalized per
    output; windows padded with weight 0."""
    if align_corners:
        step = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    else:
        step = in_size / out_size if scale is None else 1.0 / scale
    delta = 0.5 if align_corners and not antialias else 0.0
    widen = antialias and step >= 1.0
    support = (2.0 if cubic else 1.0) * (step if widen else 1.0)
    invscale = 1.0 / step if widen else 1.0
    center = step * (_np.arange(out_size) + 0.5 - delta)
    lo = _np.maximum((center - support + 0.5 + delta).astype(_np.int64), 0)
    hi = _np.minimum((center + support + 0.5 + delta).astype(_np.int64), in_size)
    width = int((hi - lo).max())
    j = _np.arange(width)[:, None]
    x = _np.abs((j + lo[None, :] - center[None, :] + 0.5 - delta) * invscale)
    if cubic:
        a = -0.5 if antialias else -0.75
        far = _np.where(x < 2, ((x - 5) * x + 8) * x * a - 4 * a, 0.0)
        w = _np.where(x < 1, ((a + 2) * x - (a + 3)) * x * x + 1, far)
    else:
        w = _np.maximum(1.0 - x, 0.0)
    w = _np.where(j < (hi - lo)[None, :], w, 0.0)
    w = w / w.sum(0, keepdims=True)
    return [(_np.minimum(lo + k, in_size - 1), w[k]) for k in range(width)]


def _interpolate_along(x, dim, taps):
    shape = [1] * x.ndim
    shape[dim] = -1
    out = None
    for indices, weights in taps:
        term = index_select(x, dim, _ints_like(x, indices))
        if weights is not None:
            term = term * _values_like(x, weights.reshape(shape))
        out = term if out is None else out + term
    return out


def _uint8_pass(x, dim, taps, in_size):
    """torch's uint8 resize of one dim of int64 `x`: each output's weights (those of one source
    index added) in int16 fixed point, at the most bits that hold the largest weight, and the
    sum rounded half up and clipped to 0..255."""
    weights = _np.zeros((len(taps[0][0]), in_size))
    for indices, w in taps:
        _np.add.at(weights, (_np.arange(len(indices)), indices), w)
    biggest = _np.abs(weights).max()
    bits = next((b for b in range(22) if int(0.5 + biggest * (1 << (b + 1))) >= 1 << 15), 22)
    fixed = _np.trunc(weights * (1 << bits) + _np.where(weights < 0, -0.5, 0.5))
    width = int((fixed != 0).sum(1).max())
    columns = _np.argsort(fixed == 0, axis=1, kind="stable")[:, :width]  # each row's nonzero weights first
    rows = _np.arange(len(fixed))[:, None]
    y = _interpolate_along(x, dim, [(columns[:, j], fixed[rows[:, 0], columns[:, j]]) for j in range(width)])
    return ((y + (1 << (bits - 1))) // (1 << bits)).clamp_(0, 255)


def interpolate_linear(input, size, scale_factor, mode, align_corners, recompute_scale_factor, antialias=False):
    """F.interpolate for mode 'linear', 'bilinear', 'bicubic' or 'trilinear' (the op
    upsample_linear: torch's coordinates, align_corners both ways, bicubic's A = -0.75 with
    clamped taps), 'area' (adaptive average pooling to the output size) and 'nearest-exact'
    (torch's rounding to the nearest source pixel center); these two and `antialias`
    (bilinear, bicubic: the filter widened when downsampling, as torch's) are weighted sums of
    index_selects one spatial dim at a time."""
    if antialias and mode not in ("bilinear", "bicubic"):
        raise NotImplementedError(f"Anti-alias option is restricted to bilinear and bicubic modes and 4-D input; "
                                  f"got mode {mode!r}")
    k = _MODE_DIMS.get(mode, input.ndim - 2)
    if input.ndim != k + 2 or not 1 <= k <= 3:
        raise NotImplementedError(f"[interpolate] mode {mode!r} takes a {k + 2}-d input [N, C, ...], got shape "
                                  f"{tuple(input.shape)}")
    if (size is None) == (scale_factor is None):
        raise ValueError("[interpolate] expected exactly one of size and scale_factor")
    spatial = list(input.shape[2:])
    if size is not None:
        sizes = [int(n) for n in (size if isinstance(size, (tuple, list)) else [size] * k)]
        scales = [None] * k
    else:
        scales = [float(s) for s in (scale_factor if isinstance(scale_factor, (tuple, list)) else [scale_factor] * k)]
        sizes = [int(math.floor(n * s)) for n, s in zip(spatial, scales)]
        if recompute_scale_factor:
            scales = [None] * k
    if len(sizes) != k or min(sizes) <= 0:
        raise ValueError(f"[interpolate] size {size!r} / scale_factor {scale_factor!r} for {k} spatial dims of "
                         f"{tuple(spatial)}; expected {k} positive output sizes")
    if input.dtype == uint8 and mode in ("bilinear", "bicubic"):
        # torch's uint8 images (PIL's resize): one pass per resized dim, the last first, each
        # rounded back to 0..255, so a downscale can differ from float's by a unit
        x = input.long()
        for d in reversed(range(k)):
            if sizes[d] != spatial[d]:
                make = _antialias_taps if antialias else _taps
                taps = make(sizes[d], spatial[d], scales[d], bool(align_corners), mode == "bicubic")
                x = _uint8_pass(x, 2 + d, taps, spatial[d])
        return x.to(uint8)
    x = input if input.dtype.is_floating_point or mode == "nearest-exact" else input.float()
    if mode in _MODE_DIMS and not antialias:
        attrs = {"output_size": sizes, "align_corners": bool(align_corners), "cubic": mode == "bicubic"}
        attrs.update({f"scale{d}": s for d, s in enumerate(scales) if s is not None})
        return apply("upsample_linear", [x], attrs)[0]
    for d in range(k):
        if mode == "nearest-exact":
            taps = _nearest_exact_taps(sizes[d], spatial[d], scales[d])
        elif mode == "area":
            taps = _area_taps(sizes[d], spatial[d])
        elif antialias:
            taps = _antialias_taps(sizes[d], spatial[d], scales[d], bool(align_corners), mode == "bicubic")
        else:
            taps = _taps(sizes[d], spatial[d], scales[d], bool(align_corners), mode == "bicubic")
        x = _interpolate_along(x, 2 + d, taps)
    return x


# ---------------------------------------------------------------------------------------------
# Losses

def _check_reduction(reduction, op):
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"[{op}] reduction {reduction!r}; expected 'mean', 'sum' or 'none'")


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """||x1 - x2 + eps||_p over the last dim, as torch's."""
    diff = (x1 - x2 + eps).abs()
    dim = max(x1.ndim, x2.ndim) - 1
    if p == float("inf"):
        return diff.amax(dim, keepdim)
    if p == 0:
        return (diff != 0).to(diff.dtype).sum(dim, keepdim)
    return (diff ** p).sum(dim, keepdim) ** (1.0 / p)


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    """max(0, -target (input1 - input2) + margin), reduced."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction, "margin_ranking_loss")
    return _reduce((-target * (input1 - input2) + margin).clamp(min=0), reduction, "margin_ranking_loss")


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """input where target is 1, max(0, margin - input) where it is -1 (torch's: both terms
    where target is neither)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction, "hinge_embedding_loss")
    zero = input * 0
    loss = where(target != 1, (margin - input).clamp(min=0), zero) + where(target != -1, input, zero)
    return _reduce(loss, reduction, "hinge_embedding_loss")


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-target input)), reduced over every element."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction, "soft_margin_loss")
    return _reduce(log(exp(-input * target) + 1), reduction, "soft_margin_loss")


def _logsigmoid(x):
    from ._functional_extra import logsigmoid
    return logsigmoid(x)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-(y log sigmoid(x) + (1 - y) log sigmoid(-x)), weighted per class, averaged over the
    classes (the last dim), then reduced over the batch."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction, "multilabel_soft_margin_loss")
    loss = -(target * _logsigmoid(input) + (1 - target) * _logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss.sum(input.ndim - 1) / input.shape[-1], reduction, "multilabel_soft_margin_loss")


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    """1 - cos(x1, x2) where target is 1, max(0, cos(x1, x2) - margin) where it is -1 (the
    cosine over the last dim, torch's eps 1e-12 on the squared norms)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction, "cosine_embedding_loss")
    dim = input1.ndim - 1
    prod = (input1 * input2).sum(dim)
    mag = ((input1 * input1).sum(dim) + 1e-12) * ((input2 * input2).sum(dim) + 1e-12)
    cos = prod / mag.sqrt()
    zero = cos * 0
    loss = where(target == 1, 1 - cos, zero) + where(target == -1, (cos - margin).clamp(min=0), zero)
    return _reduce(loss, reduction, "cosine_embedding_loss")


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    """exp(input) - target input (log_input), or input - target log(input + eps); full adds
    Stirling's term target log(target) - target + log(2 pi target) / 2 where target > 1."""
    _check_reduction(reduction, "poisson_nll_loss")
    reduction = legacy_reduction(size_average, reduce, reduction)
    loss = exp(input) - target * input if log_input else input - target * log(input + eps)
    if full:
        safe = where(target > 1, target, target * 0 + 1)
        stirling = safe * log(safe) - safe + 0.5 * log(2 * math.pi * safe)
        loss = loss + where(target > 1, stirling, stirling * 0)
    return _reduce(loss, reduction, "poisson_nll_loss")


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """(log(max(var, eps)) + (input - target)^2 / max(var, eps)) / 2, + log(2 pi) / 2 when full;
    var of input's shape, or with the last dim 1 or missing (one variance per row). As
    torch's, the clamp passes var's gradient through unchanged."""
    _check_reduction(reduction, "gaussian_nll_loss")
    if isinstance(var, numbers.Real):
        var = input * 0 + float(var)
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (tuple(input.shape[:-1]) == tuple(var.shape[:-1]) and var.shape[-1] == 1):
            raise ValueError(f"[gaussian_nll_loss] var of shape {tuple(var.shape)} for input of shape "
                             f"{tuple(input.shape)}; expected input's shape, or with the last dim 1 or missing")
    if bool((var < 0).any()):
        raise ValueError("[gaussian_nll_loss] var has negative entry/entries")
    var = var + (var.clamp(min=eps) - var).detach()
    loss = 0.5 * (log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction, "gaussian_nll_loss")


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)); swap takes the smaller of
    d(anchor, negative) and d(positive, negative). d is pairwise_distance by default."""
    _check_reduction(reduction, "triplet_margin_with_distance_loss")
    if margin <= 0:
        raise ValueError(f"[triplet_margin_with_distance_loss] margin {margin}; expected a value > 0")
    d = pairwise_distance if distance_function is None else distance_function
    d_ap, d_an = d(anchor, positive), d(anchor, negative)
    if swap:
        d_an = minimum(d_an, d(positive, negative))
    return _reduce((margin + d_ap - d_an).clamp(min=0), reduction, "triplet_margin_with_distance_loss")


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """triplet_margin_with_distance_loss with the p-norm pairwise distance (eps added)."""
    _check_reduction(reduction, "triplet_margin_loss")
    reduction = legacy_reduction(size_average, reduce, reduction)
    d_ap = pairwise_distance(anchor, positive, p, eps)
    d_an = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_an = minimum(d_an, pairwise_distance(positive, negative, p, eps))
    return _reduce((margin + d_ap - d_an).clamp(min=0), reduction, "triplet_margin_loss")


def _class_target(op, input, target):
    if input.ndim not in (1, 2):
        raise ValueError(f"[{op}] input of shape {tuple(input.shape)}; expected [N, C] or [C]")
    if target.dtype.is_floating_point:
        raise TypeError(f"[{op}] target of dtype {target.dtype}; expected class indices (int64)")
    return (input, target) if input.ndim == 2 else (input.unsqueeze(0), target.reshape([1, -1]))


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """sum over i != y of max(0, margin - x[y] + x[i])^p (times weight[y]) / C, per row."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction, "multi_margin_loss")
    if p not in (1, 2):
        raise ValueError(f"[multi_margin_loss] p {p}; expected 1 or 2")
    unbatched = input.ndim == 1
    x, y = _class_target("multi_margin_loss", input, target)
    y = y.reshape([-1, 1])
    z = (margin - gather(x, 1, y) + x).clamp(min=0)
    z = z if p == 1 else z * z
    others = 1 - one_hot(y.reshape([-1]), x.shape[1]).to(x.dtype)
    if weight is not None:
        z = z * index_select(weight, 0, y.reshape([-1])).reshape([-1, 1])
    loss = (z * others).sum(1) / x.shape[1]
    return _reduce(loss.squeeze(0) if unbatched else loss, reduction, "multi_margin_loss")


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """sum over targets j and non-targets i of max(0, 1 - (x[y_j] - x[i])) / C, per row; a
    row's targets are its target entries before the first -1."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction, "multilabel_margin_loss")
    unbatched = input.ndim == 1
    x, y = _class_target("multilabel_margin_loss", input, target)
    classes = x.shape[1]
    valid = cumsum((y < 0).to(x.dtype), 1) == 0
    picked = where(valid, y, y * 0)
    chosen = one_hot(picked, classes).to(x.dtype) * valid.to(x.dtype).unsqueeze(-1)
    is_target = (chosen.sum(1) > 0).to(x.dtype)
    x_y = gather(x, 1, picked)
    hinge = (1 - (x_y.unsqueeze(2) - x.unsqueeze(1))).clamp(min=0)
    loss = (hinge * valid.to(x.dtype).unsqueeze(2) * (1 - is_target).unsqueeze(1)).sum(2).sum(1) / classes
    return _reduce(loss.squeeze(0) if unbatched else loss, reduction, "multilabel_margin_loss")


# CTC runs in log space with this floor standing for log(0): finite, so an impossible path's
# gradient is 0 rather than inf - inf.
_LOG_ZERO = -1e30


def _host_lengths(lengths, n, what):
    values = _np.asarray(lengths._numpy() if isinstance(lengths, Tensor) else lengths, dtype=_np.int64).reshape(-1)
    if values.shape[0] != n:
        raise ValueError(f"[ctc_loss] {what} has {values.shape[0]} entries; expected one per batch entry ({n})")
    return values


def _ctc_labels(targets, target_lengths, n):
    """[N, 2 S + 1] extended labels (blank between and around the targets) as int64 on the
    host, S the longest target."""
    t = _np.asarray(targets._numpy(), dtype=_np.int64)
    longest = int(target_lengths.max()) if n else 0
    rows = _np.zeros((n, longest), dtype=_np.int64)
    offset = 0
    for i in range(n):
        length = int(target_lengths[i])
        if t.ndim == 1:
            rows[i, :length] = t[offset:offset + length]
            offset += length
        else:
            rows[i, :length] = t[i, :length]
    return rows


def _logaddexp3(a, b, c):
    top = maximum(maximum(a, b), c).detach()
    return top + log(exp(a - top) + exp(b - top) + exp(c - top))


def _torch_s_ctc_gradient_term(lp, in_len):
    """Zero, with gradient exp(log_probs) at each step within a sequence's input length: torch's
    ctc_loss backward returns exp(log_probs) minus the alignments' posteriors, the gradient the
    loss would have if log_probs were the logits of a log_softmax. Through a log_softmax (how
    log_probs are made) the added softmax cancels, so models train the same; a program reading
    the gradient of log_probs themselves (torch's documented example) sees torch's values."""
    probs = exp(lp)
    within = _placed_like(lp, tensor((_np.arange(lp.shape[0]).reshape(-1, 1) < in_len).reshape(lp.shape[0], -1, 1)))
    return where(within, probs - probs.detach(), probs * 0).sum((0, 2))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """Connectionist temporal classification: -log of the summed probability of every
    alignment of each target, by the forward (alpha) recursion over time. log_probs [T, N, C]
    (or [T, C]); targets [N, S] padded or 1-d concatenated; lengths as tensors or sequences.
    'mean' divides each loss by its target length, then averages, as torch's."""
    _check_reduction(reduction, "ctc_loss")
    unbatched = log_probs.ndim == 2
    lp = log_probs.unsqueeze(1) if unbatched else log_probs
    if unbatched and targets.ndim == 1:
        targets = targets.reshape([1, -1])
    steps, n, _ = lp.shape
    in_len = _host_lengths(input_lengths, n, "input_lengths")
    tg_len = _host_lengths(target_lengths, n, "target_lengths")
    labels = _ctc_labels(targets, tg_len, n)
    ext = _np.full((n, 2 * labels.shape[1] + 1), blank, dtype=_np.int64)
    ext[:, 1::2] = labels
    width = ext.shape[1]
    skip = _np.zeros((n, width), dtype=bool)  # s may come from s - 2: a label unlike the one two back
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    start = _np.full((n, width), _LOG_ZERO)
    start[:, 0] = 0.0
    start[tg_len > 0, 1] = 0.0
    ext_t = _ints_like(lp, ext)
    floor = _values_like(lp, _np.full((n, 1), _LOG_ZERO))
    can_skip = _values_like(lp, _np.where(skip, 0.0, _LOG_ZERO))
    emit = gather(lp[0], 1, ext_t)
    alpha = emit + _values_like(lp, start)
    for t in range(1, steps):
        prev1 = cat([floor, alpha[:, :-1]], 1)
        prev2 = cat([floor, floor, alpha[:, :-2]], 1) + can_skip if width > 2 else alpha * 0 + _LOG_ZERO
        new = _logaddexp3(alpha, prev1, prev2.clamp(min=_LOG_ZERO)) + gather(lp[t], 1, ext_t)
        alpha = where(_placed_like(lp, tensor((t < in_len).reshape(-1, 1))), new, alpha)
    last = _ints_like(lp, _np.stack([2 * tg_len, _np.maximum(2 * tg_len - 1, 0)], 1))
    ends = gather(alpha, 1, last)
    ends = where(_placed_like(lp, tensor((tg_len > 0).reshape(-1, 1) | _np.array([[True, False]]))), ends,
                 ends * 0 + _LOG_ZERO)
    top = ends.amax(1, True).detach()
    loss = -(top.reshape([-1]) + log(exp(ends - top).sum(1))) + _torch_s_ctc_gradient_term(lp, in_len)
    impossible = loss > -_LOG_ZERO / 2
    loss = where(impossible, loss * 0 + (0.0 if zero_infinity else float("inf")), loss)
    if reduction == "mean":
        return (loss / _values_like(lp, _np.maximum(tg_len, 1))).mean()
    if reduction == "sum":
        return loss.sum()
    return loss.squeeze(0) if unbatched else loss


__all__ = ["adaptive_avg_pool1d", "adaptive_max_pool1d", "hardshrink", "softshrink", "bilinear", "pixel_shuffle",
           "pixel_unshuffle", "channel_shuffle", "unfold", "fold", "pairwise_distance", "margin_ranking_loss",
           "hinge_embedding_loss", "soft_margin_loss", "multilabel_soft_margin_loss", "cosine_embedding_loss",
           "poisson_nll_loss", "gaussian_nll_loss", "triplet_margin_loss", "triplet_margin_with_distance_loss",
           "multi_margin_loss", "multilabel_margin_loss", "ctc_loss"]
