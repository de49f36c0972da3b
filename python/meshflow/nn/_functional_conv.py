"""The functional layers of convolutional networks, torch.nn.functional's names, arguments and
defaults: conv1d/2d/3d, max_pool1d/2d/3d, avg_pool1d/2d/3d, adaptive_avg_pool2d/3d,
adaptive_max_pool2d/3d, pad, interpolate, batch_norm, group_norm, rms_norm. Re-exported by
meshflow.nn.functional.

conv2d/3d, the pooling ops and pad are ops of their own (meshflow/ops/conv.cc and pool.cc: CPU
and CUDA kernels, SBP signatures, gradients); the 1-d forms are the 2-d ones on a height of 1,
and the bias is the op's own input on local tensors (the oneDNN primitive's bias), else an
add. batch_norm with the batch's statistics is the op batch_norm (meshflow/ops/batch_norm.cc)
where each rank holds whole channels; over a batch split across data-parallel ranks it is
composed of reductions and elementwise ops, whose statistics are reduced over the logical
tensor: synchronized (equal to one device) without a special op. The other normalizations are
such compositions.
"""
import math
import numbers

from .. import _C
from .. import _dtype
from .. import sbp as _sbp
from .._tensor import Tensor, _impl_of, _in_layout_of, apply, no_grad
from .._autocast import autocast_dtype, halves_in_float32 as _halves_in_float32
from .._ops_reduce import mean

__all__ = ["conv1d", "conv2d", "conv3d", "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d",
           "avg_pool3d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool2d", "adaptive_max_pool3d",
           "pad", "interpolate", "batch_norm", "group_norm", "rms_norm"]


_COUNTS = {1: "one", 2: "two", 3: "three"}


def _ints(op, name, value, n):
    """An int or a tuple of n ints as a list of n ints."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return [int(value)] * n
    if isinstance(value, (tuple, list)) and len(value) == n and all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in value):
        return [int(v) for v in value]
    raise TypeError(f"[{op}] {name} is {value!r}; expected an int or a tuple of {_COUNTS[n]} ints")


def _pair(op, name, value):
    """An int or a pair of ints as a list of two ints."""
    return _ints(op, name, value, 2)


def _single(op, name, value):
    """An int or a 1-tuple of an int, as an int (the 1-d forms' arguments)."""
    if isinstance(value, (tuple, list)) and len(value) == 1:
        value = value[0]
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    raise TypeError(f"[{op}] {name} is {value!r}; expected an int or a tuple of one int")


def _batched(op, input, dims):
    """(input with a batch dim, whether one was added): torch's ops take an unbatched input
    of one dim less."""
    if not isinstance(input, Tensor):
        raise TypeError(f"[{op}] expected a meshflow Tensor, got {type(input).__name__}")
    if input.ndim == dims:
        return input, False
    if input.ndim == dims - 1:
        return input.unsqueeze(0), True
    raise ValueError(f"[{op}] the input has shape {tuple(input.shape)}; expected {dims} dims (batched) or "
                     f"{dims - 1} (unbatched)")


def _conv_padding(op, padding, weight_size, dilation, stride):
    """(pad_begin, pad_end) of a convolution's padding: ints, 'valid' or 'same' (torch's: the
    extra element of an odd total goes at the end)."""
    n = len(weight_size)
    if isinstance(padding, str):
        if padding == "valid":
            return [0] * n, [0] * n
        if padding == "same":
            if any(s != 1 for s in stride):
                raise ValueError(f"[{op}] padding='same' is not supported for strided convolutions")
            total = [d * (k - 1) for d, k in zip(dilation, weight_size)]
            begin = [t // 2 for t in total]
            return begin, [t - b for t, b in zip(total, begin)]
        raise ValueError(f"[{op}] padding {padding!r}; expected 'valid', 'same', an int or a tuple of ints")
    pads = _ints(op, "padding", padding, n)
    return pads, pads


_KERNEL_LAYOUT = {2: "[C_out, C_in / groups, kH, kW]", 3: "[C_out, C_in / groups, kD, kH, kW]"}


_LOWERED = {_dtype.float32, _dtype.float16, _dtype.bfloat16}


def _with_bias(op, dims, inputs, attrs, bias, channels):
    """The convolution op on inputs (x and the weight) plus the bias [channels] per output
    channel: the op's own bias input where the op takes it as given (local tensors of one dtype
    and device, or under autocast of float32 or halves, which it casts alike: torch's one
    rounding of the sum), else the op and an add of the bias."""
    x = inputs[0]
    dtypes = {bias.dtype, x.dtype, inputs[1].dtype} if bias is not None else set()
    castable = len(dtypes) == 1 if autocast_dtype() is None else dtypes <= _LOWERED
    if (bias is not None and not x.is_global and not bias.is_global and castable
            and tuple(bias.shape) == (channels,) and bias.device == x.device):
        return apply(op, inputs + [bias], attrs)[0]
    y = apply(op, inputs, attrs)[0]
    if bias is None:
        return y
    return Tensor(_C.add_bias(_impl_of("bias", y), _impl_of("bias", bias.reshape([1, -1] + [1] * dims))))


def _conv(op, dims, input, weight, bias, stride, padding, dilation, groups):
    """The op conv2d or conv3d (dims 2 or 3) on a batched or unbatched input, plus the bias."""
    x, unbatched = _batched(op, input, dims + 2)
    stride, dilation = _ints(op, "stride", stride, dims), _ints(op, "dilation", dilation, dims)
    if weight.ndim != dims + 2:
        raise ValueError(f"[{op}] the weight has shape {tuple(weight.shape)}; expected {dims + 2} dims "
                         f"{_KERNEL_LAYOUT[dims]}")
    begin, end = _conv_padding(op, padding, list(weight.shape[2:]), dilation, stride)
    attrs = {"stride": stride, "pad_begin": begin, "pad_end": end, "dilation": dilation, "groups": int(groups)}
    y = _with_bias(op, dims, [x, weight], attrs, bias, weight.shape[0])
    # torch's one ConvolutionBackward0 (an unbatched input's ends in its squeeze, as here)
    return y.squeeze(0) if unbatched else _C.grad_fn_as(y, "ConvolutionBackward0", input, weight, bias)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d convolution (cross-correlation, as torch) of input [N, C_in, H, W] (or [C_in, H,
    W]) with weight [C_out, C_in / groups, kH, kW], plus bias [C_out]. padding: an int, a
    pair, 'valid' or 'same' (zeros)."""
    return _conv("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-d convolution of input [N, C_in, D, H, W] (or [C_in, D, H, W]) with weight [C_out,
    C_in / groups, kD, kH, kW], plus bias [C_out]. padding: an int, a triple, 'valid' or
    'same' (zeros)."""
    return _conv("conv3d", 3, input, weight, bias, stride, padding, dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d convolution of input [N, C_in, L] (or [C_in, L]) with weight [C_out, C_in / groups,
    k], plus bias [C_out]: conv2d on a height of 1."""
    x, unbatched = _batched("conv1d", input, 3)
    if weight.ndim != 3:
        raise ValueError(f"[conv1d] the weight has shape {tuple(weight.shape)}; expected 3 dims "
                         "[C_out, C_in / groups, k]")
    if not isinstance(padding, str):
        padding = (0, _single("conv1d", "padding", padding))
    y = conv2d(x.unsqueeze(2), weight.unsqueeze(2), bias, (1, _single("conv1d", "stride", stride)), padding,
               (1, _single("conv1d", "dilation", dilation)), groups).squeeze(2)
    return y.squeeze(0) if unbatched else _C.grad_fn_as(y, "ConvolutionBackward0", input, weight, bias)


def _pool_attrs(op, kernel_size, stride, padding, dims=2):
    kernel = _ints(op, "kernel_size", kernel_size, dims)
    stride = kernel if stride is None or (isinstance(stride, (tuple, list)) and not stride) else \
        _ints(op, "stride", stride, dims)
    return {"kernel_size": kernel, "stride": stride, "padding": _ints(op, "padding", padding, dims)}


def _max_pool(op, dims, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices):
    x, unbatched = _batched(op, input, dims + 2)
    attrs = _pool_attrs(op, kernel_size, stride, padding, dims)
    attrs.update(dilation=_ints(op, "dilation", dilation, dims), ceil_mode=bool(ceil_mode))
    y, indices = apply(op, [x], attrs)
    if unbatched:
        y, indices = y.squeeze(0), indices.squeeze(0)
    return (y, indices) if return_indices else y


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each window of input [N, C, H, W] (or [C, H, W]); padding counts as
    -inf. With return_indices, also the int64 index h * W + w of each maximum in its plane."""
    return _max_pool("max_pool2d", 2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each window of input [N, C, D, H, W] (or [C, D, H, W]); padding counts as
    -inf. With return_indices, also the int64 index (d * H + h) * W + w of each maximum."""
    return _max_pool("max_pool3d", 3, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """max_pool2d over the last dim of [N, C, L] (or [C, L])."""
    x, unbatched = _batched("max_pool1d", input, 3)
    one = lambda name, v: (1, _single("max_pool1d", name, v))  # noqa: E731
    out = max_pool2d(x.unsqueeze(2), one("kernel_size", kernel_size),
                     None if stride is None else one("stride", stride), (0, _single("max_pool1d", "padding", padding)),
                     one("dilation", dilation), ceil_mode, True)
    y, indices = (t.squeeze(2) for t in out)
    if unbatched:
        y, indices = y.squeeze(0), indices.squeeze(0)
    return (y, indices) if return_indices else y


def _avg_pool(op, dims, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    x, unbatched = _batched(op, input, dims + 2)
    attrs = _pool_attrs(op, kernel_size, stride, padding, dims)
    attrs.update(ceil_mode=bool(ceil_mode), count_include_pad=bool(count_include_pad))
    if divisor_override is not None:
        if not isinstance(divisor_override, numbers.Integral) or divisor_override <= 0:
            raise ValueError(f"[{op}] divisor_override is {divisor_override!r}; expected a positive int")
        attrs["divisor_override"] = int(divisor_override)
    y = apply(op, [x], attrs)[0]
    return y.squeeze(0) if unbatched else y


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each window of input [N, C, H, W] (or [C, H, W]): divided by the window's
    size with padding (count_include_pad) or without, or by divisor_override."""
    return _avg_pool("avg_pool2d", 2, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """avg_pool2d's mean over the 3-d windows of input [N, C, D, H, W] (or [C, D, H, W])."""
    return _avg_pool("avg_pool3d", 3, input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """avg_pool2d over the last dim of [N, C, L] (or [C, L])."""
    x, unbatched = _batched("avg_pool1d", input, 3)
    one = lambda name, v: (1, _single("avg_pool1d", name, v))  # noqa: E731
    y = avg_pool2d(x.unsqueeze(2), one("kernel_size", kernel_size), None if stride is None else one("stride", stride),
                   (0, _single("avg_pool1d", "padding", padding)), ceil_mode, count_include_pad).squeeze(2)
    return y.squeeze(0) if unbatched else y


def _output_size(op, output_size, x, dims=2):
    """dims ints; None entries keep the input's size, as torch."""
    if isinstance(output_size, (tuple, list)) and len(output_size) == dims:
        output_size = [x.shape[x.ndim - dims + i] if s is None else s for i, s in enumerate(output_size)]
    return _ints(op, "output_size", output_size, dims)


def _adaptive_pool(op, dims, input, output_size):
    """The op's outputs on a batched or unbatched input."""
    x, unbatched = _batched(op, input, dims + 2)
    out = apply(op, [x], {"output_size": _output_size(op, output_size, x, dims)})
    return [t.squeeze(0) for t in out] if unbatched else out


def adaptive_avg_pool2d(input, output_size):
    """Averages over output_size windows of input [N, C, H, W] (or [C, H, W]); window o of an
    axis covers [floor(o * in / out), ceil((o + 1) * in / out))."""
    return _adaptive_pool("adaptive_avg_pool2d", 2, input, output_size)[0]


def adaptive_avg_pool3d(input, output_size):
    """adaptive_avg_pool2d's windows over input [N, C, D, H, W] (or [C, D, H, W])."""
    return _adaptive_pool("adaptive_avg_pool3d", 3, input, output_size)[0]


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Maxima over adaptive_avg_pool2d's windows; with return_indices, also their indices."""
    y, indices = _adaptive_pool("adaptive_max_pool2d", 2, input, output_size)
    return (y, indices) if return_indices else y


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Maxima over adaptive_avg_pool3d's windows; with return_indices, also their indices."""
    y, indices = _adaptive_pool("adaptive_max_pool3d", 3, input, output_size)
    return (y, indices) if return_indices else y


_PAD_MODES = {"constant": 0, "reflect": 1, "replicate": 2}


def pad(input, pad, mode="constant", value=None):
    """Pads input by `pad` (torch's order: the last dim's before and after, then the previous
    dim's, ...). mode 'constant' fills with `value` (0 by default; negative pads crop);
    'reflect' mirrors the input without repeating its edge, 'replicate' repeats the edge:
    those pad the last 1 to 3 dims of an input with 1 or 2 more dims (batch, channels), as
    torch's."""
    if not isinstance(pad, (tuple, list)) or not all(isinstance(p, numbers.Integral) and not isinstance(p, bool)
                                                     for p in pad):
        raise TypeError(f"[pad] pad is {pad!r}; expected a tuple of ints")
    if mode not in _PAD_MODES:
        if mode == "circular":
            from ._functional_surface2 import circular_pad
            return circular_pad(input, pad)
        raise ValueError(f"[pad] mode {mode!r}; expected 'constant', 'reflect', 'replicate' or 'circular'")
    attrs = {"pads": [int(p) for p in pad], "mode": _PAD_MODES[mode]}
    if mode != "constant":
        if value is not None and value != 0:
            raise ValueError(f"[pad] padding mode {mode!r} doesn't take in value argument")
        dims = len(pad) // 2
        if not 1 <= dims <= 3 or input.ndim not in (dims + 1, dims + 2):
            raise NotImplementedError(f"[pad] mode {mode!r} pads the last 1 to 3 dims of an input with 1 or 2 more "
                                      f"dims; got {len(pad)} pads for an input of shape {tuple(input.shape)}")
    elif value is not None and value != 0:
        attrs["value"] = value
    if input.dtype.name in _PADDED_IN_INT32:  # the pad kernels' dtypes: bool and the small ints ride in int32
        if "value" in attrs:
            attrs["value"] = int(attrs["value"])
        return apply("pad", [input.to("int32")], attrs)[0].to(input.dtype)
    # torch's node: ConstantPadNdBackward0, Reflection/ReplicationPad<N>DBackward0
    name = "ConstantPadNdBackward0" if mode == "constant" else f"{_PAD_NODES[mode]}Pad{len(pad) // 2}DBackward0"
    return _C.grad_fn_as(apply("pad", [input], attrs)[0], name, input)


_PADDED_IN_INT32 = ("bool", "uint8", "int8", "int16")
_PAD_NODES = {"reflect": "Reflection", "replicate": "Replication"}
# interpolate's node as torch's: Upsample<Mode><N>DBackward0
_UPSAMPLE_NODES = {"nearest": "Nearest", "linear": "Linear", "bilinear": "Bilinear", "bicubic": "Bicubic",
                   "trilinear": "Trilinear"}


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resizes the last 1 to 3 dims of [N, C, ...] to `size`, or by `scale_factor` (the size
    floor(in * scale_factor)). Mode 'nearest' is torch's (output o reads input
    floor(o * in / out), or floor(o / scale_factor) with a scale factor); 'linear',
    'bilinear', 'bicubic', 'trilinear', 'area' and 'nearest-exact' are
    _functional_surface.interpolate_linear."""
    if mode in ("linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact"):
        from ._functional_surface import interpolate_linear
        if align_corners is not None and mode in ("area", "nearest-exact"):
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                             "bicubic | trilinear")
        return _C.grad_fn_as(interpolate_linear(input, size, scale_factor, mode, align_corners,
                                                recompute_scale_factor, antialias), _upsample_node(mode, input), input)
    if mode != "nearest":
        raise NotImplementedError(f"[interpolate] mode {mode!r} is not implemented; meshflow interpolates with mode "
                                  "'nearest', 'nearest-exact', 'area', 'linear', 'bilinear', 'bicubic' or 'trilinear'")
    if align_corners is not None or antialias:
        raise ValueError("[interpolate] align_corners and antialias are for the interpolating modes, not 'nearest'")
    k = input.ndim - 2
    if not 1 <= k <= 3:
        raise ValueError(f"[interpolate] the input has shape {tuple(input.shape)}; expected 3 to 5 dims [N, C, ...]")
    if (size is None) == (scale_factor is None):
        raise ValueError("[interpolate] expected exactly one of size and scale_factor")
    spatial = list(input.shape[2:])
    attrs = {}
    if size is not None:
        sizes = list(size) if isinstance(size, (tuple, list)) else [size] * k
        if len(sizes) != k:
            raise ValueError(f"[interpolate] size {size!r} for {k} spatial dims")
        attrs["output_size"] = [int(n) for n in sizes]
    else:
        scales = list(scale_factor) if isinstance(scale_factor, (tuple, list)) else [scale_factor] * k
        if len(scales) != k:
            raise ValueError(f"[interpolate] scale_factor {scale_factor!r} for {k} spatial dims")
        attrs["output_size"] = [int(math.floor(float(n) * float(s))) for n, s in zip(spatial, scales)]
        if not recompute_scale_factor:
            attrs.update({f"scale{d}": float(s) for d, s in enumerate(scales)})
    return _C.grad_fn_as(apply("upsample_nearest", [input], attrs)[0], _upsample_node(mode, input), input)


def _upsample_node(mode, input):
    kind = _UPSAMPLE_NODES.get(mode)
    return None if kind is None else f"Upsample{kind}{input.ndim - 2}DBackward0"


# ---- Normalization

def _channel_view(t, ndim):
    """A per-channel vector [C] shaped [1, C, 1, ...] against an input of ndim dims."""
    return t.reshape([1, -1] + [1] * (ndim - 2))


def _batch_parts(x):
    """How many parts the batch dim of x is split into across ranks (1 for a local tensor)."""
    if not x.is_global:
        return 1
    parts = 1
    for size, s in zip(x.placement.hierarchy, x.sbp):
        if s.is_split and s.dim == 0:
            parts *= size
    return parts


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5,
               *, local_stats=False):
    """torch.nn.functional.batch_norm over input [N, C, ...]: normalized with the batch's
    statistics over every dim but C (training, or no running statistics) or with
    running_mean / running_var, then scaled by weight and shifted by bias ([C] each).

    In training, running_mean and running_var (when given) take their new values in place:
    (1 - momentum) * running + momentum * batch statistic, the variance unbiased (n / (n - 1)).
    momentum is a float, or a 0-d tensor (BatchNorm's cumulative 1 / num_batches_tracked),
    which a Graph reads at every run; inside a Graph the updates are the step's too.

    On a global input the batch statistics are reduced over the logical batch: with the batch
    split across data-parallel ranks they are synchronized, equal to one device (as
    SyncBatchNorm). local_stats=True gives each rank's part of the batch its own statistics
    instead, as PyTorch's plain BatchNorm under DDP; the running statistics then take the mean
    of the parts' statistics (the same on every rank). It needs a batch split evenly."""
    if not isinstance(input, Tensor):
        raise TypeError(f"[batch_norm] expected a meshflow Tensor, got {type(input).__name__}")
    use_batch = training or running_mean is None or running_var is None
    parts = _batch_parts(input) if local_stats and use_batch else 1
    if parts == 1:  # the C++ composition (functional.h), shared with the C++ modules
        impl = [None if t is None else _impl_of("batch_norm", t) for t in (running_mean, running_var, weight, bias)]
        factor = momentum._impl if isinstance(momentum, Tensor) else float(momentum)
        return Tensor(_C.batch_norm(_impl_of("batch_norm", input), *impl, bool(training), factor, float(eps)))
    # Each part of the batch alone: the batch dim cut into [parts, N / parts], which keeps
    # the split (each rank holds one part), and reduced within each part.
    ndim, channels = input.ndim, input.shape[1]
    if input.shape[0] % parts:
        raise ValueError(f"[batch_norm] local_stats with a batch of {input.shape[0]} split over {parts} ranks; "
                         "expected a batch that splits evenly")
    count = input.numel() // channels // parts
    if training and count <= 1:
        raise ValueError(f"[batch_norm] expected more than 1 value per channel when training, got input of shape "
                         f"{tuple(input.shape)} split over {parts} ranks")
    grouped = input.reshape([parts, input.shape[0] // parts] + list(input.shape[1:]))
    dims = [1] + list(range(3, ndim + 1))
    centered = grouped - mean(grouped, dims, keepdim=True)
    var = mean(centered * centered, dims, keepdim=True)
    y = (centered * (var + eps).rsqrt()).reshape(input.shape)
    if training and running_mean is not None and running_var is not None:
        with no_grad():
            batch_mean, batch_var = mean(grouped, dims).mean(0), var.reshape(parts, channels).mean(0)
            unbiased = batch_var * (count / (count - 1))
            for running, batch in ((running_mean, batch_mean), (running_var, unbiased)):
                factor = _broadcast_beside(momentum, batch) if isinstance(momentum, Tensor) else momentum
                updated = _broadcast_beside(running, batch) * (1 - factor) + batch * factor
                running.data = _in_layout_of(updated, running)
    if weight is not None:
        y = y * _channel_view(weight, ndim)
    if bias is not None:
        y = y + _channel_view(bias, ndim)
    return y


def _broadcast_beside(t, x):
    """t (a running statistic: local until modules convert their buffers) as a broadcast
    global tensor on x's placement when x is global and t is not; otherwise t."""
    if t is None or not x.is_global or t.is_global:
        return t
    return Tensor(_C.replicated_beside("batch_norm", t._impl, x._impl.placement, [_sbp.broadcast] * len(x.sbp)))


@_halves_in_float32("cuda")
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalizes input [N, C, ...] over each of num_groups groups of C / num_groups channels
    (with every dim after C), then scales by weight and shifts by bias ([C] each): the op
    group_norm."""
    params = [p for p in (weight, bias) if p is not None]
    return apply("group_norm", [input] + params, {"num_groups": int(num_groups), "eps": float(eps),
                                                  "has_weight": weight is not None, "has_bias": bias is not None})[0]


_FLOAT_EPS = {"float32": 2.0 ** -23, "float64": 2.0 ** -52, "bfloat16": 2.0 ** -7, "float16": 2.0 ** -10}


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """x / sqrt(mean(x^2) + eps) over the trailing dims normalized_shape, times weight; eps
    None is the machine epsilon of input's dtype (torch 2.4's)."""
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(int(s) for s in normalized_shape)
    k = len(normalized_shape)
    if not k or tuple(input.shape[input.ndim - k:]) != normalized_shape or k > input.ndim:
        raise ValueError(f"[rms_norm] normalized_shape {list(normalized_shape)} is not the trailing dims of the "
                         f"input's shape {list(input.shape)}")
    if eps is None:
        eps = _FLOAT_EPS.get(input.dtype.name, 2.0 ** -23)
    return _rms_normalized(input, list(range(input.ndim - k, input.ndim)), weight, eps)


@_halves_in_float32()
def _rms_normalized(input, dims, weight, eps):
    y = input * (mean(input * input, dims, keepdim=True) + eps).rsqrt()
    return y * weight if weight is not None else y

