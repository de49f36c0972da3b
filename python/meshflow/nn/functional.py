"""meshflow.nn.functional: softmax, log_softmax, layer_norm, embedding, cross_entropy, relu, gelu, ..."""
import numbers

from .._ops_reduce import log_softmax, softmax  # noqa: F401: part of this module's API
from .. import _C
from .._tensor import Tensor, _impl_of, apply


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalizes over the trailing dims `normalized_shape` (biased variance), then scales by
    `weight` and shifts by `bias` (both of shape `normalized_shape`) when given."""
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = [normalized_shape]
    attrs = {"normalized_shape": [int(n) for n in normalized_shape], "eps": float(eps),
             "has_weight": weight is not None, "has_bias": bias is not None}
    inputs = [t for t in (input, weight, bias) if t is not None]
    return apply("layer_norm", inputs, attrs)[0]


def embedding(input, weight):
    """The rows of `weight` [vocabulary, dim] at the int32/int64 indices `input`."""
    return apply("embedding", [input, weight])[0]


def gather(input, dim, index):
    """torch.gather: out[..., j, ...] = input[..., index[..., j, ...], ...] along `dim`, for
    int32/int64 `index` of input's shape except along `dim`."""
    return apply("gather", [input, index], {"dim": int(dim)})[0]


def cross_entropy(input, target):
    """The mean over the batch of -log_softmax(input)[i, target[i]], for logits `input` [N, C]
    and int32/int64 class indices `target` [N]. Logits split on the class dim (vocabulary
    parallelism) are never gathered: only per-row statistics cross ranks."""
    return Tensor(_C.cross_entropy(_impl_of("cross_entropy", input), _impl_of("cross_entropy", target)))


def linear(input, weight, bias=None):
    """input @ weight^T + bias, with weight [out_features, in_features] as in torch."""
    bias = None if bias is None else _impl_of("linear", bias)
    return Tensor(_C.linear(_impl_of("linear", input), _impl_of("linear", weight), bias))


def scaled_dot_product_attention(query, key, value, is_causal=False, scale=None):
    """softmax(query @ key^T * scale) @ value over the last two dims, as torch's: query
    [..., Tq, D], key [..., Tk, D], value [..., Tk, Dv] with the same leading dims (batch,
    heads); is_causal masks key j > query i; scale defaults to 1 / sqrt(D). One fused op: the
    [..., Tq, Tk] probabilities are never stored, and the backward pass recomputes them
    block by block. Splits of the leading dims (heads, batch) carry through."""
    return apply("scaled_dot_product_attention", [query, key, value],
                 _attention_attrs("scaled_dot_product_attention", is_causal, scale))[0]


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


def dropout(input, p=0.5, training=True):
    """Zeroes elements with probability p and scales the others by 1 / (1 - p). The mask comes
    from the counter-based generator: every parallel layout drops the same elements."""
    return Tensor(_C.dropout(_impl_of("dropout", input), float(p), bool(training)))


from .._ops_elementwise import gelu, relu, sigmoid, tanh  # noqa: E402,F401: part of this module's API
