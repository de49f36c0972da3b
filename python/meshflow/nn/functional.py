"""meshflow.nn.functional: softmax, log_softmax, layer_norm, embedding, cross_entropy, relu, gelu,
the losses (mse_loss, l1_loss, smooth_l1_loss, nll_loss, binary_cross_entropy(_with_logits),
kl_div, huber_loss), cosine_similarity, normalize, softmin, leaky_relu, elu, ...

The losses other than cross_entropy are compositions of elementwise ops, gather and
reductions, as torch defines them: they run on every device and layout the ops do, and their
gradients are those ops'."""
import numbers
import warnings

import numpy as _np

from .._ops_elementwise import exp, log, maximum, where
from .. import _ops_reduce
from .._ops_reduce import norm as _norm


def softmax(input, dim=None, _stacklevel=3, dtype=None, *, causal=False):
    """torch.nn.functional.softmax (meshflow.softmax with F's argument order)."""
    return _ops_reduce.softmax(input, dim, dtype, causal=causal)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None, *, causal=False):
    """torch.nn.functional.log_softmax (meshflow.log_softmax with F's argument order)."""
    return _ops_reduce.log_softmax(input, dim, dtype, causal=causal)
from .._ops_shape import broadcast_to as _broadcast_to
from .. import _C
from .. import _dtype
from .._autocast import halves_in_float32 as _halves_in_float32
from .._tensor import Tensor, _impl_of, apply


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalizes over the trailing dims `normalized_shape` (biased variance), then scales by
    `weight` and shifts by `bias` (both of shape `normalized_shape`) when given."""
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = [normalized_shape]
    attrs = {"normalized_shape": [int(n) for n in normalized_shape], "eps": float(eps),
             "has_weight": weight is not None, "has_bias": bias is not None}
    if getattr(input, "dtype", None) in (_dtype.bfloat16, _dtype.float16) and any(t is not None and t.dtype != input.dtype
                                                                 for t in (weight, bias)):
        # torch's mixed form (a half input, float32 weights, as under autocast): in float32,
        # rounded once to the input's dtype.
        return _mixed_layer_norm(input, normalized_shape, weight, bias, eps)
    inputs = [t for t in (input, weight, bias) if t is not None]
    return apply("layer_norm", inputs, attrs)[0]


_mixed_layer_norm = _halves_in_float32("cuda")(layer_norm)


def gather(input, dim, index):
    """torch.gather: out[..., j, ...] = input[..., index[..., j, ...], ...] along `dim`, for
    int32/int64 `index` of input's shape except along `dim`."""
    return apply("gather", [input, index], {"dim": int(dim)})[0]




@_halves_in_float32("both")
def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """-log_softmax(input)[i, target[i]] over the batch, for logits `input` [N, C] (or
    [N, C, d1, ...], the class dim second) and int32/int64 class indices `target` [N] (or
    [N, d1, ...]), with torch's weight, ignore_index, reduction and label_smoothing.

    With the defaults (logits [N, C], mean, no weight, no smoothing, ignore_index -100) it is
    the C++ composition whose logits split on the class dim (vocabulary parallelism) are never
    gathered: only per-row statistics cross ranks. Otherwise, on local tensors, the op
    softmax_cross_entropy with the weight, ignore_index and label_smoothing (one pass over the
    logits each way) and the reduction; on global ones log_softmax then nll_loss, as torch
    defines it. A float target holds class probabilities."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    logits, classes = _impl_of("cross_entropy", input), _impl_of("cross_entropy", target)
    if target.dtype.name.startswith(("float", "bfloat")):
        return _cross_entropy_with_probabilities(input, target, weight, reduction, label_smoothing)
    if (weight is None and ignore_index == -100 and reduction == "mean" and not label_smoothing
            and input.ndim == 2):  # the C++ form
        return Tensor(_C.cross_entropy(logits, classes))
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"[cross_entropy] label_smoothing {label_smoothing}; expected a value in [0, 1]")
    input, target, shape = _class_rows("cross_entropy", input, target)
    if not input.is_global:
        return _fused_cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing, shape)
    logp = log_softmax(input, -1)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if not label_smoothing:
        return nll.reshape(shape) if reduction == "none" and len(shape) != 1 else nll
    kept = (target != ignore_index).to(logp.dtype)
    smooth = -(logp if weight is None else logp * weight).sum(-1) * kept
    if reduction == "mean":
        counted = kept if weight is None else kept * embedding(where(target != ignore_index, target, 0),
                                                                weight.unsqueeze(1)).squeeze(1)
        smooth = smooth.sum() / counted.sum()
    else:
        smooth = _reduce(smooth, reduction, "cross_entropy")
    loss = nll * (1.0 - label_smoothing) + smooth * (label_smoothing / input.shape[-1])
    return loss.reshape(shape) if reduction == "none" else loss


def _fused_cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing, shape):
    """cross_entropy of rows [M, C] and targets [M] as the op softmax_cross_entropy, then the
    reduction: 'mean' divides by the weights of the targets counted, as torch."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"[cross_entropy] reduction {reduction!r}; expected 'mean', 'sum' or 'none'")
    inputs = [input, target]
    if weight is not None:
        inputs.append(weight if weight.dtype == input.dtype else weight.to(input.dtype))
    loss = apply("softmax_cross_entropy", inputs,
                 {"ignore_index": int(ignore_index), "label_smoothing": float(label_smoothing)})[0]
    if reduction == "mean":
        kept = target != ignore_index
        counted = kept.to(input.dtype)
        if weight is not None:
            counted = counted * embedding(where(kept, target, 0), inputs[2].unsqueeze(1)).squeeze(1)
        loss = loss.sum() / counted.sum()
    elif reduction == "sum":
        loss = loss.sum()
    else:
        loss = loss.reshape(shape)
    return _C.grad_fn_as(loss, "AddBackward0" if label_smoothing else "NllLossBackward0", input, target, weight)


def _class_rows(op, input, target):
    """Class scores [N, C, d1, ...] and class indices [N, d1, ...] (or unbatched: [C] and a
    scalar) as rows [M, C] and [M], classes last, with the shape a 'none' reduction returns."""
    if input.ndim == 1 and target.ndim == 0:
        return input.unsqueeze(0), target.unsqueeze(0), ()
    if (input.ndim < 2 or target.ndim != input.ndim - 1 or target.shape[0] != input.shape[0]
            or tuple(target.shape[1:]) != tuple(input.shape[2:])):
        raise ValueError(f"[{op}] input of shape {tuple(input.shape)} and target of shape {tuple(target.shape)}; "
                         "expected [N, C, d1, ...] and [N, d1, ...] (or [C] and a scalar)")
    if input.ndim == 2:
        return input, target, tuple(target.shape)
    classes = input.shape[1]
    rows = input.permute([0] + list(range(2, input.ndim)) + [1]).reshape(-1, classes)
    return rows, target.reshape(-1), tuple(target.shape)


def _cross_entropy_with_probabilities(input, target, weight, reduction, label_smoothing):
    """cross_entropy with class probabilities as the target (of input's shape), as torch's:
    -sum_c w_c p_c log_softmax(input)_c per row, the mean over rows without weighting."""
    if tuple(target.shape) != tuple(input.shape):
        raise _C.OpError(f"[cross_entropy] probabilities target of shape {tuple(target.shape)}; expected the "
                         f"input's shape {tuple(input.shape)}")
    dim = 1 if input.ndim > 1 else 0
    classes = input.shape[dim]
    if label_smoothing:
        target = target * (1.0 - label_smoothing) + label_smoothing / classes
    logp = log_softmax(input, dim)
    if weight is not None:
        logp = logp * weight.reshape([classes] + [1] * (input.ndim - dim - 1))
    loss = -(logp * target).sum(dim)
    return _reduce(loss, reduction, "cross_entropy")


def legacy_reduction(size_average, reduce, reduction="mean"):
    """torch's reading of the deprecated size_average / reduce arguments: either given
    decides the reduction (reduce=False: 'none'; else size_average=False: 'sum'; else
    'mean'), with torch's warning; neither given leaves `reduction`."""
    if size_average is None and reduce is None:
        return reduction
    import warnings
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    result = "none" if not reduce else ("mean" if size_average else "sum")
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{result}' instead.",
                  UserWarning, stacklevel=3)
    return result


def _reduce(loss, reduction, op):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"[{op}] reduction {reduction!r}; expected 'mean', 'sum' or 'none'")


def _same_shape(op, input, target):
    if input.shape != target.shape:
        raise ValueError(f"[{op}] input of shape {tuple(input.shape)} and target of shape {tuple(target.shape)}; "
                         "expected one shape")


def _smooth_l1(input, target, beta, huber):
    """The C++ op smooth_l1 on input and target promoted to one dtype (torch's result type)."""
    from .._promotion import result_type
    dtype = result_type(input, target)
    return apply("smooth_l1", [input.to(dtype), target.to(dtype)], {"beta": float(beta), "huber": huber})[0]


def _broadcast_target(input, target, warn=True):
    """input and target broadcast together, as torch's pointwise losses take a target of
    another shape (mse_loss of [N, 1] and [N] is the mean over [N, N]); with torch's warning
    for the regression losses (kl_div broadcasts silently, as torch's)."""
    if input.shape == target.shape:
        return input, target
    if warn:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have "
                      "the same size.", stacklevel=3)
    from .._api import broadcast_tensors
    return broadcast_tensors(input, target)


@_halves_in_float32("both")
def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """(input - target)^2, reduced ('mean', 'sum' or 'none')."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    input, target = _broadcast_target(input, target)
    diff = input - target
    return _C.grad_fn_as(_reduce(diff * diff, reduction, "mse_loss"), "MseLossBackward0", input, target)


@_halves_in_float32("both")
def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """|input - target|, reduced."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    input, target = _broadcast_target(input, target)
    return _reduce((input - target).abs(), reduction, "l1_loss")


@_halves_in_float32("both")
def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta, for d = input - target (torch's;
    beta 0 is l1_loss)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    input, target = _broadcast_target(input, target)
    if beta < 0:
        raise ValueError(f"[smooth_l1_loss] beta {beta}; expected beta >= 0")
    if beta:  # one op each way (smooth_l1, smooth_l1_backward)
        d = _smooth_l1(input, target, beta, huber=False)
    else:
        d = (input - target).abs()
    return _C.grad_fn_as(_reduce(d, reduction, "smooth_l1_loss"), "SmoothL1LossBackward0", input, target)


@_halves_in_float32("both")
def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    """-w [p y log sigmoid(x) + (1 - y) log(1 - sigmoid(x))], computed stably as torch does:
    (1 - y) x + (1 + (p - 1) y) (log(1 + exp(-|x|)) + max(-x, 0))."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    _same_shape("binary_cross_entropy_with_logits", input, target)
    if pos_weight is None:  # the common case, one op
        loss = apply("binary_cross_entropy_with_logits", [input, target])[0]
    else:
        softplus_neg = log(exp(-input.abs()) + 1.0) + maximum(-input, 0.0)  # log(1 + exp(-x))
        loss = (1.0 - target) * input + ((pos_weight - 1.0) * target + 1.0) * softplus_neg
    if weight is not None:
        loss = loss * weight
    return _C.grad_fn_as(_reduce(loss, reduction, "binary_cross_entropy_with_logits"),
                         "BinaryCrossEntropyWithLogitsBackward0", input, target, weight, pos_weight)


@_halves_in_float32("both")
def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-w [y log(p) + (1 - y) log(1 - p)] for probabilities `input`, each log clamped at -100
    as torch does, with torch's gradient (p - y) / max(p (1 - p), 1e-12): one op."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    _same_shape("binary_cross_entropy", input, target)
    loss = apply("binary_cross_entropy", [input, target])[0]
    if weight is not None:
        loss = loss * weight
    return _C.grad_fn_as(_reduce(loss, reduction, "binary_cross_entropy"), "BinaryCrossEntropyBackward0", input,
                         target, weight)


@_halves_in_float32("both")
def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """-input[i, target[i]] (times weight[target[i]]) for log-probabilities `input` [N, C] (or
    [N, C, d1, ...], or [C]) and class indices `target` [N] (or [N, d1, ...], or a scalar);
    targets equal to ignore_index count nothing, and 'mean' divides by the weights of the
    targets counted, as torch."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    input, target, shape = _class_rows("nll_loss", input, target)
    kept = target != ignore_index
    safe = where(kept, target, 0)
    picked = -gather(input, 1, safe.unsqueeze(1)).squeeze(1)
    w = kept.to(input.dtype)
    if weight is not None:
        w = w * embedding(safe, weight.unsqueeze(1)).squeeze(1)
    loss = picked * w
    if reduction == "mean":
        loss = loss.sum() / w.sum()
    else:
        loss = loss.reshape(shape) if reduction == "none" else _reduce(loss, reduction, "nll_loss")
    return _C.grad_fn_as(loss, "NllLossBackward0", input, target, weight)


# ---- Activations and losses composed of existing ops (issue 26): their devices, layouts and
# gradients are those ops'. Comparisons feed `where` only, which takes their result whatever
# its dtype. (gelu, with approximate='tanh', is mf.gelu.)

def _softmax_dim(name, ndim):
    # torch's legacy choice when dim is None.
    return 0 if ndim in (0, 1, 3) else 1


@_halves_in_float32("cuda")
def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-input) along dim."""
    dim = _softmax_dim("softmin", input.ndim) if dim is None else dim
    x = input if dtype is None else input.to(dtype)
    return softmax(-x, dim)


@_halves_in_float32("cuda")
def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(||input||_p along dim, eps)."""
    if out is not None:
        raise TypeError("normalize: out= is not supported")
    return input / maximum(_norm(input, p, dim, keepdim=True), eps)


@_halves_in_float32("cuda")
def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """sum(x1 / max(||x1||, eps) * x2 / max(||x2||, eps)) along dim, after broadcasting, as
    torch computes it."""
    if x1.shape != x2.shape:
        shape = _np.broadcast_shapes(tuple(x1.shape), tuple(x2.shape))
        x1, x2 = _broadcast_to(x1, shape), _broadcast_to(x2, shape)
    n1 = maximum(_norm(x1, 2, dim, keepdim=True), eps)
    n2 = maximum(_norm(x2, 2, dim, keepdim=True), eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


@_halves_in_float32("both")
def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """target (log target - input) pointwise, with `input` log-probabilities (0 where target
    is 0 and NaN where it is negative, as torch's xlogy); log_target: exp(target) (target -
    input). reduction
    'batchmean' divides the sum by the batch size (input.shape[0]), the mathematical KL
    divergence; 'mean' by the element count, as torch."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    batch = input.shape[0] if input.ndim else 1  # of input as given, before broadcasting
    input, target = _broadcast_target(input, target, warn=False)
    if log_target:
        pointwise = exp(target) * (target - input)
    else:
        from .._ops_port import xlogy  # torch's: so target's gradient is xlogy's too (NaN at 0)
        pointwise = xlogy(target, target) - target * input
    if reduction == "batchmean":
        return pointwise.sum() / batch
    return _reduce(pointwise, reduction, "kl_div")


@_halves_in_float32("both")
def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta), for d = input - target."""
    input, target = _broadcast_target(input, target)
    if delta <= 0:
        raise ValueError(f"[huber_loss] delta {delta}; expected delta > 0")
    loss = _smooth_l1(input, target, delta, huber=True)
    if weight is not None:
        loss = loss * weight
    return _C.grad_fn_as(_reduce(loss, reduction, "huber_loss"), "HuberLossBackward0", input, target, weight)


def linear(input, weight, bias=None):
    """input @ weight^T + bias, with weight [out_features, in_features] as in torch; a 1-d
    input [in_features] gives [out_features]."""
    x = _impl_of("linear", input)
    if input.ndim == 1:  # torch's node: an unsafe view of the product's row
        row = linear(input.unsqueeze(0), weight, bias)
        return _C.grad_fn_as(row.squeeze(0), "UnsafeViewBackward0", row)
    bias = None if bias is None else _impl_of("linear", bias)
    return Tensor(_C.linear(x, _impl_of("linear", weight), bias))


def packed_qkv_attention(qkv, is_causal=False, scale=None):
    """scaled_dot_product_attention on q, k and v packed per token and head, as one fused
    projection makes them: qkv [..., T, H, 3 * D] holds, for each token and head, that head's
    query, key and value (D elements each); returns [..., T, H, D] (reshape to [..., T, H * D]
    for the output projection). The kernel reads the three in place, so no slice, permute or
    copy separates them, forward or backward (OneFlow's "BM(H3K)" layout, FlashAttention's
    qkvpacked form). Splits of the leading dims (batch) and of H (heads) carry through."""
    return apply("packed_qkv_attention", [qkv], _attention_attrs("packed_qkv_attention", is_causal, scale))[0]


def _attention_attrs(op, is_causal, scale):
    attrs = {"causal": bool(is_causal)}
    if scale is not None:
        if not isinstance(scale, numbers.Real) or not scale > 0:
            raise ValueError(f"{op}: scale must be a positive number, got {scale!r}")
        attrs["scale"] = float(scale)
    return attrs


from .._ops_elementwise import gelu, sigmoid, softplus, tanh  # noqa: E402,F401: part of this module's API

# Convolutional networks' layers: convolution, pooling, padding, normalization.
from ._functional_conv import (conv1d, conv2d, conv3d, max_pool1d, max_pool2d, max_pool3d,  # noqa: E402,F401
                               avg_pool1d, avg_pool2d, avg_pool3d, adaptive_avg_pool2d, adaptive_avg_pool3d,
                               adaptive_max_pool2d, adaptive_max_pool3d, pad, interpolate, batch_norm, group_norm,
                               rms_norm)
from .._ops_index import one_hot  # noqa: E402,F401: part of this module's API

# Activations with inplace= and the remaining everyday ones, dropout(inplace=), embedding(padding_idx=)
# and attention with masks (issue 26).
from ._functional_extra import (relu, relu_, hardtanh, hardtanh_, relu6, threshold, threshold_, silu,  # noqa: E402,F401
                                mish, hardsigmoid, hardswish, leaky_relu, leaky_relu_, elu, elu_, logsigmoid, softsign,
                                tanhshrink, glu, prelu, dropout, dropout1d, dropout2d, dropout3d, embedding,
                                scaled_dot_product_attention)

# Instance and local response normalization, selu and celu (issue 26, continued).
from ._functional_more import selu, celu, instance_norm, local_response_norm  # noqa: E402,F401
from ._conv_transpose import conv_transpose1d, conv_transpose2d, conv_transpose3d  # noqa: E402,F401: part of this module's API
# Bilinear, pixel and channel shuffles, unfold / fold and the remaining losses (issue 37).
from ._functional_surface import (adaptive_avg_pool1d, adaptive_max_pool1d, hardshrink, softshrink,  # noqa: E402,F401
                                  bilinear, pixel_shuffle, pixel_unshuffle, channel_shuffle,
                                  unfold, fold, pairwise_distance, margin_ranking_loss, hinge_embedding_loss,
                                  soft_margin_loss, multilabel_soft_margin_loss, cosine_embedding_loss,
                                  poisson_nll_loss, gaussian_nll_loss, triplet_margin_loss,
                                  triplet_margin_with_distance_loss, multi_margin_loss, multilabel_margin_loss,
                                  ctc_loss)
# Embedding bags, rrelu, alpha dropout, lp and unpooling, gumbel_softmax, pdist (issue 37, continued).
from ._functional_surface2 import (embedding_bag, rrelu, alpha_dropout, feature_alpha_dropout,  # noqa: E402,F401
                                   lp_pool1d, lp_pool2d, max_unpool1d, max_unpool2d, gumbel_softmax, pdist,
                                   affine_grid, grid_sample, fractional_max_pool2d)


# torch's older and explicit spellings (issue 37, third round): the *_with_indices forms, the
# deprecated upsample family, and the in-place activations.
def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=True):
    return adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=True):
    return adaptive_max_pool2d(input, output_size, True)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """torch's deprecated F.upsample: interpolate."""
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def selu_(input):
    return selu(input, inplace=True)


def celu_(input, alpha=1.0):
    return celu(input, alpha, inplace=True)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, inplace=True)
