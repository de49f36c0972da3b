"""meshflow.nn.functional, continued (issue 26): activations with torch's inplace= argument
(relu, relu6, hardtanh, threshold, silu, mish, hardswish, hardsigmoid, leaky_relu, elu) and the
ones without (logsigmoid, glu, softsign, tanhshrink, prelu), dropout(inplace=), embedding with
padding_idx, and scaled_dot_product_attention with attn_mask and dropout_p, as torch 2.x.

Each is its C++ op where one exists (relu, hardtanh, silu, leaky_relu), else composed of
existing ops, so it runs on every device and layout those ops do and its gradients are theirs. inplace=True computes out of place and writes the result into the
input (meshflow/_inplace.py), as x.relu_() does."""
import math

import numpy as _np

from .. import _C
from .._autocast import halves_in_float32 as _halves_in_float32
from .._inplace import _inplace
from .._ops_creation import zeros
from .._ops_elementwise import _bounded, clamp, exp, relu as _relu, sigmoid, silu as _silu, softplus, tanh, where
from .._ops_reduce import softmax
from .._tensor import Tensor, _impl_of, apply, tensor


def _maybe_inplace(input, compute, inplace, name):
    """compute(), written into input when `inplace` (computed inside the write, whose own
    calls keep the old value: meshflow/_inplace.py)."""
    return _inplace(input, compute, name + "_") if inplace else compute()


def relu(input, inplace=False):
    """max(input, 0)."""
    return _maybe_inplace(input, lambda: _relu(input), inplace, "relu")


def relu_(input):
    return relu(input, inplace=True)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """input clamped to [min_val, max_val] (C++ hardtanh: clamp's values, and torch's gradient,
    which passes at NaN)."""
    return _maybe_inplace(input, lambda: _bounded("hardtanh", input, min_val, max_val), inplace, "hardtanh")


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):
    """min(max(input, 0), 6): hardtanh(input, 0, 6), as torch's."""
    return _maybe_inplace(input, lambda: _bounded("hardtanh", input, 0.0, 6.0), inplace, "relu6")


def threshold(input, threshold, value, inplace=False):
    """input where input > threshold, else value."""
    return _maybe_inplace(input, lambda: where(input > threshold, input, value), inplace, "threshold")


def threshold_(input, threshold_, value):
    return threshold(input, threshold_, value, inplace=True)


def silu(input, inplace=False):
    """input * sigmoid(input)."""
    return _maybe_inplace(input, lambda: _silu(input), inplace, "silu")


def mish(input, inplace=False):
    """input * tanh(softplus(input))."""
    mish_of = _halves_in_float32()(lambda x: x * tanh(softplus(x)))
    return _maybe_inplace(input, lambda: mish_of(input), inplace, "mish")


def hardsigmoid(input, inplace=False):
    """relu6(input + 3) / 6."""
    hardsigmoid_of = _halves_in_float32()(lambda x: clamp(x + 3.0, 0.0, 6.0) / 6.0)
    return _maybe_inplace(input, lambda: hardsigmoid_of(input), inplace, "hardsigmoid")


def hardswish(input, inplace=False):
    """input * relu6(input + 3) / 6."""
    hardswish_of = _halves_in_float32()(lambda x: x * (clamp(x + 3.0, 0.0, 6.0) / 6.0))
    return _maybe_inplace(input, lambda: hardswish_of(input), inplace, "hardswish")


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x where x > 0, else negative_slope * x: the C++ op leaky_relu, one pass each way (the
    gradient at 0 is negative_slope, as torch's)."""
    attrs = {"negative_slope": float(negative_slope)}
    return _maybe_inplace(input, lambda: apply("leaky_relu", [input], attrs)[0], inplace, "leaky_relu")


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def elu(input, alpha=1.0, inplace=False):
    """x where x > 0, else alpha (exp(x) - 1); exp sees 0 for x > 0 so that large inputs make no
    inf whose zero gradient would become NaN."""
    elu_of = _halves_in_float32()(lambda x: where(x > 0, x, (exp(where(x > 0, 0.0, x)) - 1.0) * alpha))
    return _C.grad_fn_as(_maybe_inplace(input, lambda: elu_of(input), inplace, "elu"), "EluBackward0", input)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


@_halves_in_float32()
def logsigmoid(input):
    """log(sigmoid(input)) = -softplus(-input), stable for any sign."""
    return -softplus(-input)


@_halves_in_float32()
def softsign(input):
    """input / (1 + |input|)."""
    return input / (input.abs() + 1.0)


@_halves_in_float32()
def tanhshrink(input):
    """input - tanh(input)."""
    return input - tanh(input)


@_halves_in_float32()
def glu(input, dim=-1):
    """a * sigmoid(b) for the halves a, b of input along dim."""
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    size = input.shape[dim]
    if size % 2:
        raise RuntimeError(f"glu: Halving dimension must be even, but dimension {dim % input.ndim} is size {size}")
    a, b = input.tensor_split(2, dim)
    return a * sigmoid(b)


def prelu(input, weight):
    """max(0, x) + weight * min(0, x); a weight of more than one element runs along the channel
    dim (dim 1; dim 0 of a 1-d input), as torch's."""
    w = weight
    if weight.numel() > 1:
        if input.ndim == 0:
            raise RuntimeError("prelu: Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim >= 2 else input.shape[0]
        if weight.numel() != channels:
            raise RuntimeError(f"prelu: Mismatch of parameter numbers and input channel size. Found parameter "
                               f"numbers = {weight.numel()} and channel size = {channels}.")
        if input.ndim >= 2:
            w = weight.reshape([1, channels] + [1] * (input.ndim - 2))
    elif weight.ndim:
        w = weight.reshape([])
    return where(input > 0, input, input * w)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeroes elements with probability p and scales the others by 1 / (1 - p). The mask comes
    from the counter-based generator: every parallel layout drops the same elements. p = 1
    zeroes everything, as torch's."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input  # as torch's: the input itself, its grad_fn and all
    def compute():
        if p == 1.0 and training:
            return input * 0.0
        return Tensor(_C.dropout(_impl_of("dropout", input), float(p), bool(training)))
    return _maybe_inplace(input, compute, inplace, "dropout")


def _channel_dropout(name, input, p, training, inplace, batched):
    """Zeroes whole channels (dim 1 when `batched`, else dim 0) with probability p and scales
    the others by 1 / (1 - p): the input times a dropped-out mask of ones, one per channel."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    kept = 2 if batched else 1
    mask = dropout(input.new_ones(tuple(input.shape[:kept]) + (1,) * (input.ndim - kept)), p, True)
    return _maybe_inplace(input, lambda: input * mask, inplace, name)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Channel dropout on [N, C, L] or unbatched [C, L]."""
    if input.ndim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input. Note that "
                           "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a "
                           "channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _channel_dropout("dropout1d", input, p, training, inplace, input.ndim == 3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Channel dropout on [N, C, H, W]. Like torch's, a 3-d input is taken as [N, C, L] (1-d
    channel dropout), not as unbatched [C, H, W]."""
    if input.ndim < 2:
        raise RuntimeError(f"dropout2d: Expected 3D or 4D input, but received a {input.ndim}D input")
    return _channel_dropout("dropout2d", input, p, training, inplace, True)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Channel dropout on [N, C, D, H, W] or unbatched [C, D, H, W]."""
    if input.ndim not in (4, 5):
        raise RuntimeError(f"dropout3d: Expected 4D or 5D input, but received a {input.ndim}D input")
    return _channel_dropout("dropout3d", input, p, training, inplace, input.ndim == 5)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """The rows of `weight` [vocabulary, dim] at the int32/int64 indices `input`. The row
    padding_idx gets no gradient (its lookups are detached), as torch's. max_norm: first, as
    torch's, each looked-up row whose norm_type-norm exceeds max_norm is scaled in place (not
    recorded for autograd) to norm max_norm. scale_grad_by_freq: each looked-up row's
    gradient is divided by how often input holds its index, as torch's. sparse: the gradient
    is dense (its values are torch's sparse gradient's, zero rows written out)."""
    if max_norm is not None:
        _renorm_rows(weight, input, float(max_norm), float(norm_type))
    out = apply("embedding", [input, weight])[0]
    if scale_grad_by_freq:
        # The value stays out (e - e.detach() is 0); the gradient to e is divided by the count.
        counts = _zeros_for(out, weight.shape[0]).index_add(0, input.reshape(-1), _zeros_for(out, input.numel()) + 1)
        frequency = counts[input].unsqueeze(-1)
        out = out.detach() + (out - out.detach()) / frequency
    if padding_idx is None:
        return out
    padding_idx = _padding_index(padding_idx, weight.shape[0])
    return where((input != padding_idx).unsqueeze(-1), out, out.detach())


def _renorm_rows(weight, input, max_norm, norm_type):
    """torch.embedding_renorm_: rows of weight at `input` scaled by max_norm / (norm + 1e-7)
    where their norm exceeds max_norm."""
    from .._tensor import no_grad
    with no_grad():
        rows = tensor(sorted(set(input.reshape(-1).tolist())), dtype="int64",
                      device=None if input.is_global else input.device)
        picked = weight[rows]
        norms = picked.norm(p=norm_type, dim=1, keepdim=True)
        weight[rows] = where(norms > max_norm, picked * (max_norm / (norms + 1e-7)), picked)


def _padding_index(padding_idx, num_embeddings):
    if not -num_embeddings <= padding_idx < num_embeddings:
        raise AssertionError("Padding_idx must be within num_embeddings")
    return padding_idx + num_embeddings if padding_idx < 0 else padding_idx


def _constant_like(array, like):
    """A constant NumPy array (a bool one stays bool, others take like's dtype) as a tensor,
    broadcast on like's placement when like is global."""
    array = _np.asarray(array)
    if array.dtype != bool:
        array = array.astype(like.dtype.numpy)
    if like.is_global:
        placement = like.placement
        return tensor(array, placement=placement, sbp=[_C.Sbp.broadcast()] * len(placement.hierarchy))
    return tensor(array, device=like.device)


def _as_layout_of(t, like):
    """t on like's placement (broadcast) when like is global and t is local."""
    if like.is_global and not t.is_global:
        placement = like.placement
        return t.to_global(placement=placement, sbp=[_C.Sbp.broadcast()] * len(placement.hierarchy))
    return t


def _zeros_for(like, *shape):
    """Zeros of `shape` in like's dtype where like lives: on its device, or broadcast on its
    placement; a forward's default state (an RNN's), made as torch makes it."""
    if like.is_global:
        return _as_layout_of(zeros(*shape, dtype=like.dtype), like)
    return zeros(*shape, dtype=like.dtype, device=like.device)


def _additive_mask(mask, like, allowed_when_true):
    """A bool or float mask as an additive float mask of like's dtype: a bool mask is 0 where
    attention is allowed and -inf where not (`allowed_when_true`: True marks allowed, as in
    scaled_dot_product_attention; otherwise True marks masked, as in MultiheadAttention)."""
    mask = _as_layout_of(mask, like)
    if mask.dtype.name == "bool":
        allowed = mask if allowed_when_true else mask.logical_not()
        zero = _constant_like(0.0, like)
        return where(allowed, zero, float("-inf"))
    if not mask.dtype.name.startswith(("float", "bfloat")):
        raise TypeError(f"attention: only bool and floating types of masks are supported, got {mask.dtype.name}")
    return mask.to(like.dtype)


def _gqa_heads(query, key, value):
    """enable_gqa's key and value (grouped-query attention): each of their heads (dim -3)
    repeated for the query heads of its group, as torch's repeat_interleave."""
    if query.ndim < 3 or key.ndim < 3 or value.ndim < 3:
        raise RuntimeError("scaled_dot_product_attention: enable_gqa needs query, key and value with a heads dim "
                           "(-3)")
    hq, hk, hv = query.shape[-3], key.shape[-3], value.shape[-3]
    if hq % hk or hq % hv:
        raise RuntimeError(f"scaled_dot_product_attention: number of heads in key/value ({hk}, {hv}) must divide "
                           f"the number of heads in query ({hq}) with enable_gqa=True")
    return (key.repeat_interleave(hq // hk, -3) if hk != hq else key,
            value.repeat_interleave(hq // hv, -3) if hv != hq else value)


def _safe_softmax(scores):
    """softmax over the last dim, with a row that is -inf throughout (a query whose keys are
    all masked) at 0 and passing no gradient, as torch's attention (not NaN): the row is
    taken at 0 before the softmax, so its backward stays finite. Such a row is one whose
    maximum is -inf: one float reduction, where comparing every score first made a bool
    tensor of the scores' size and reduced that."""
    masked = scores.detach().amax(-1, keepdim=True) == float("-inf")
    return softmax(scores.masked_fill(masked, 0.0), -1).masked_fill(masked, 0.0)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """softmax(query @ key^T * scale + mask) @ value over the last two dims, as torch's: query
    [..., Tq, D], key [..., Tk, D], value [..., Tk, Dv] with the same leading dims (batch,
    heads); is_causal masks key j > query i; scale defaults to 1 / sqrt(D). attn_mask
    (broadcastable to [..., Tq, Tk]): bool, True where attention is allowed, or float, added to
    the scores; a query whose keys are all masked gets 0 (as torch's). dropout_p drops
    attention weights. enable_gqa: key and value may have fewer
    heads (dim -3) than query, a divisor of its count; each serves its group of query heads.

    Without a mask and dropout it is one fused op: the [..., Tq, Tk] probabilities are never
    stored, and the backward pass recomputes them block by block. Splits of the leading dims
    (heads, batch) carry through."""
    from . import functional as _F
    if enable_gqa:
        key, value = _gqa_heads(query, key, value)
    if attn_mask is not None and is_causal:
        raise RuntimeError("scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    if attn_mask is None and not dropout_p:
        return apply("scaled_dot_product_attention", [query, key, value],
                     _F._attention_attrs("scaled_dot_product_attention", is_causal, scale))[0]
    _F._attention_attrs("scaled_dot_product_attention", is_causal, scale)  # checks scale
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    scores = query.matmul(key.transpose(-2, -1)) * scale
    tq, tk = scores.shape[-2:]
    if is_causal:
        attn_mask = _constant_like(_np.tril(_np.ones((tq, tk), bool)), scores)
    if attn_mask is not None:
        scores = scores + _additive_mask(attn_mask, scores, allowed_when_true=True)
    weights = _safe_softmax(scores)
    if dropout_p:
        weights = dropout(weights, dropout_p, True)
    return weights.matmul(value)


__all__ = ["relu", "relu_", "hardtanh", "hardtanh_", "relu6", "threshold", "threshold_", "silu", "mish",
           "hardsigmoid", "hardswish", "leaky_relu", "leaky_relu_", "elu", "elu_", "logsigmoid", "softsign",
           "tanhshrink", "glu", "prelu", "dropout", "dropout1d", "dropout2d", "dropout3d", "embedding",
           "scaled_dot_product_attention"]
