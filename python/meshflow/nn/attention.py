"""nn.MultiheadAttention, as torch's: its parameters (in_proj_weight [3E, E] or q/k/v_proj_weight
when kdim or vdim differ from embed_dim, in_proj_bias [3E], bias_k and bias_v [1, 1, E] with
add_bias_kv, out_proj a Linear), their init, masks (bool: True = not allowed; float: added to
the scores), add_bias_kv's and add_zero_attn's extra key and value positions (appended after
the keys, in that order; every mask lets them be attended), and its results (output, the
attention weights averaged over heads or per head, or None).

Composed of linear, reshape/permute, matmul, softmax and dropout: global tensors work as those
ops do (a batch split carries through every step). With need_weights=False and no masks, the
attention itself is the fused scaled_dot_product_attention."""
import contextlib
import enum
import math

from . import functional as F
from . import init
from ._functional_extra import _additive_mask
from .modules import Linear, Module, Parameter
from .._ops_creation import empty, zeros_like
from .._ops_shape import cat
from .._ops_reduce import softmax


class NonDynamicallyQuantizableLinear(Linear):
    """MultiheadAttention's out_proj: a Linear under torch's class name (its repr shows it)."""


class MultiheadAttention(Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        self.embed_dim, self.num_heads, self.dropout, self.batch_first = embed_dim, num_heads, dropout, batch_first
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        made = {"device": device, "dtype": dtype}
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(empty(3 * embed_dim, embed_dim, **made))
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        else:
            self.q_proj_weight = Parameter(empty(embed_dim, embed_dim, **made))
            self.k_proj_weight = Parameter(empty(embed_dim, self.kdim, **made))
            self.v_proj_weight = Parameter(empty(embed_dim, self.vdim, **made))
            self.in_proj_weight = None
        self.in_proj_bias = Parameter(empty(3 * embed_dim, **made)) if bias else None
        if add_bias_kv:
            self.bias_k = Parameter(empty(1, 1, embed_dim, **made))
            self.bias_v = Parameter(empty(1, 1, embed_dim, **made))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **made)
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for w in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(w)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
            init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        """query [L, N, E] (batch_first: [N, L, E]; unbatched: [L, E]), key [S, N, kdim], value
        [S, N, vdim]; key_padding_mask [N, S]; attn_mask [L, S] or [N * num_heads, L, S].
        Returns (output like query, weights [N, L, S] (per head: [N, H, L, S]) or None)."""
        if is_causal and attn_mask is None:
            raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                               "method `generate_square_subsequent_mask` to create this mask.")
        if query.ndim not in (2, 3) or key.ndim != query.ndim or value.ndim != query.ndim:
            raise AssertionError(f"query, key and value should be unbatched 2D or batched 3D tensors, got "
                                 f"{query.ndim}D, {key.ndim}D and {value.ndim}D")
        batched = query.ndim == 3
        if not batched:
            query, key, value = query.unsqueeze(0), key.unsqueeze(0), value.unsqueeze(0)
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        elif not self.batch_first:  # the math runs batch first
            query, key, value = query.transpose(0, 1), key.transpose(0, 1), value.transpose(0, 1)
        n, tgt_len, e = query.shape
        src_len = key.shape[1]
        if e != self.embed_dim:
            raise AssertionError(f"was expecting embedding dimension of {self.embed_dim}, but got {e}")
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key shape {tuple(key.shape)} does not match value shape {tuple(value.shape)}")
        h, d = self.num_heads, self.head_dim
        q, k, v = self._in_projection(query, key, value)
        q = q.reshape(n, tgt_len, h, d).permute(0, 2, 1, 3)
        k, v = self._extra_positions(k.reshape(n, src_len, h, d).permute(0, 2, 1, 3),
                                     v.reshape(n, src_len, h, d).permute(0, 2, 1, 3))
        extra = k.shape[2] - src_len

        mask = None
        if attn_mask is not None:
            if attn_mask.ndim == 2:
                if tuple(attn_mask.shape) != (tgt_len, src_len):
                    raise RuntimeError(f"The shape of the 2D attn_mask is {tuple(attn_mask.shape)}, but should be "
                                       f"{(tgt_len, src_len)}.")
            elif attn_mask.ndim == 3:
                if tuple(attn_mask.shape) != (n * h, tgt_len, src_len):
                    raise RuntimeError(f"The shape of the 3D attn_mask is {tuple(attn_mask.shape)}, but should be "
                                       f"{(n * h, tgt_len, src_len)}.")
                attn_mask = attn_mask.reshape(n, h, tgt_len, src_len)
            else:
                raise RuntimeError(f"attn_mask's dimension {attn_mask.ndim} is not supported")
            mask = _additive_mask(attn_mask, q, allowed_when_true=False)
        if key_padding_mask is not None:
            if tuple(key_padding_mask.shape) != (n, src_len):
                raise AssertionError(f"expecting key_padding_mask shape of {(n, src_len)}, but got "
                                     f"{tuple(key_padding_mask.shape)}")
            padding = _additive_mask(key_padding_mask, q, allowed_when_true=False).reshape(n, 1, 1, src_len)
            mask = padding if mask is None else mask + padding
        if mask is not None and extra:  # the extra positions are attended by every query
            mask = F.pad(mask, (0, extra))
        dropout_p = self.dropout if self.training else 0.0

        if need_weights:
            scores = (q * (1.0 / math.sqrt(d))).matmul(k.transpose(-2, -1))
            if mask is not None:
                scores = scores + mask
            weights = softmax(scores, -1)
            if dropout_p > 0:
                weights = F.dropout(weights, dropout_p, True)
            out = weights.matmul(v)
        else:
            weights = None
            # attn_mask is then the causal mask (square, without extra positions)
            fused_causal = is_causal and key_padding_mask is None and not extra
            out = F.scaled_dot_product_attention(q, k, v, None if fused_causal else mask, dropout_p, fused_causal)
        out = self.out_proj(out.permute(0, 2, 1, 3).reshape(n, tgt_len, e))
        if weights is not None and average_attn_weights:
            weights = weights.mean(1)
        if not batched:
            out = out.squeeze(0)
            if weights is not None:
                weights = weights.squeeze(0)
        elif not self.batch_first:
            out = out.transpose(0, 1)
        return out, weights

    def _extra_positions(self, k, v):
        """k and v [N, H, S, D] with add_bias_kv's bias_k / bias_v, then add_zero_attn's zeros,
        appended as positions S, S + 1 (torch's order)."""
        n, h, _, d = k.shape
        if self.bias_k is not None:
            k = cat([k, self.bias_k.reshape(1, h, 1, d).expand(n, h, 1, d)], 2)
            v = cat([v, self.bias_v.reshape(1, h, 1, d).expand(n, h, 1, d)], 2)
        if self.add_zero_attn:
            k = cat([k, zeros_like(k[:, :, :1])], 2)
            v = cat([v, zeros_like(v[:, :, :1])], 2)
        return k, v

    def _in_projection(self, query, key, value):
        e = self.embed_dim
        b = self.in_proj_bias
        bq, bk, bv = (None, None, None) if b is None else (b[:e], b[e:2 * e], b[2 * e:])
        if self._qkv_same_embed_dim:
            w = self.in_proj_weight
            wq, wk, wv = w[:e], w[e:2 * e], w[2 * e:]
        else:
            wq, wk, wv = self.q_proj_weight, self.k_proj_weight, self.v_proj_weight
        return F.linear(query, wq, bq), F.linear(key, wk, bk), F.linear(value, wv, bv)



class SDPBackend(enum.IntEnum):
    """torch.nn.attention.SDPBackend: the kernels torch chooses among for
    scaled_dot_product_attention (meshflow has one per device: every choice runs it)."""
    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """torch.nn.attention.sdpa_kernel: limits torch's choice of attention kernels inside the
    block. meshflow's attention has one kernel per device, whose results are torch's math
    backend's to rounding, so the block runs as without it (the backends are checked)."""
    for b in backends if isinstance(backends, (list, tuple, set)) else [backends]:
        if not isinstance(b, SDPBackend):
            raise TypeError(f"sdpa_kernel: expected SDPBackend values, got {b!r}")
    yield
