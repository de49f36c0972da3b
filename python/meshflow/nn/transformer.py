"""nn.Transformer and its parts, as torch's: TransformerEncoderLayer, TransformerEncoder,
TransformerDecoderLayer, TransformerDecoder. Parameter names, init, forward arguments and the
order of residuals, norms and dropouts are torch's, so state_dicts load either way.

Composed of MultiheadAttention, Linear, LayerNorm, Dropout and the activation: global
tensors work as those do. The encoder and decoder hold deep copies of the layer given, as
torch's. is_causal=None is taken as False (torch would compare the mask with the causal one
to pick a faster kernel; the values are the same either way)."""
import copy

import numpy as _np

from . import functional as F
from . import init
from ._modules_extra import Dropout
from .attention import MultiheadAttention
from .modules import LayerNorm, Linear, Module, ModuleList
from .._tensor import tensor

__all__ = ["Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
           "TransformerDecoderLayer"]


def _activation(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    if isinstance(activation, str) or not callable(activation):
        raise RuntimeError(f"activation should be relu/gelu, not {activation}")
    return activation


def _clones(module, n):
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


class _Layer(Module):
    """What torch's encoder and decoder layers share: self-attention (and, in a decoder,
    attention to memory), the feed-forward block (linear1, activation, dropout, linear2) and
    `norms` layer norms with a dropout each; the feed-forward block's dropout is the last of
    them. Submodules are made in torch's order, so parameters and state_dict keys follow it."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                 bias, norms, device, dtype):
        super().__init__()
        made = {"bias": bias, "device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, **made)
        if norms == 3:
            self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, **made)
        self.linear1 = Linear(d_model, dim_feedforward, **made)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, **made)
        self.norm_first = norm_first
        for i in range(1, norms + 1):
            setattr(self, f"norm{i}", LayerNorm(d_model, eps=layer_norm_eps, **made))
        for i in range(1, norms + 1):
            setattr(self, f"dropout{i}", Dropout(dropout))
        self.activation = _activation(activation)
        self._ff_dropout = f"dropout{norms}"

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
                           is_causal=bool(is_causal))[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        return getattr(self, self._ff_dropout)(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerEncoderLayer(_Layer):
    """Self-attention then a feed-forward block (linear1, activation, dropout, linear2), each
    with dropout and a residual connection, normalized after each (norm_first=False) or
    before each (norm_first=True)."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                         norm_first, bias, 2, device, dtype)

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x


class TransformerDecoderLayer(_Layer):
    """Self-attention on tgt, attention to memory, then the feed-forward block, each with
    dropout and a residual connection, normalized after (norm_first=False) or before each."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
                         norm_first, bias, 3, device, dtype)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                need_weights=False, is_causal=bool(is_causal))[0]
        return self.dropout2(x)


def _nested_capable(layer):
    """Whether torch's encoder would run `layer` on nested tensors (its use_nested_tensor):
    a post-norm TransformerEncoderLayer, batch first, with one in-projection with bias, relu
    or gelu, equal norm eps and an even number of heads."""
    attn = getattr(layer, "self_attn", None)
    return (isinstance(layer, TransformerEncoderLayer) and not layer.norm_first and attn.batch_first
            and attn._qkv_same_embed_dim and attn.in_proj_bias is not None
            and layer.activation in (F.relu, F.gelu) and layer.norm1.eps == layer.norm2.eps and attn.num_heads % 2 == 0)


class TransformerEncoder(Module):
    """num_layers deep copies of encoder_layer applied in turn, then norm (if given).

    Where torch's would take its nested-tensor path (enable_nested_tensor and a layer that
    allows it, in eval mode, a batched src with a right-padded src_key_padding_mask and no
    mask, no autograd through the layer's weights, no autocast), the output at padded
    positions is 0 before the final norm, as torch's to_padded_tensor(0.0) leaves it; the
    other positions are the same either way."""

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = bool(enable_nested_tensor) and _nested_capable(encoder_layer)
        self.mask_check = mask_check

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        padded = self._padded_positions(src, mask, src_key_padding_mask)
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=bool(is_causal),
                           src_key_padding_mask=src_key_padding_mask)
        if padded is not None:
            output = output.masked_fill(padded.unsqueeze(-1), 0.0)
        return self.norm(output) if self.norm is not None else output

    def _padded_positions(self, src, mask, key_padding_mask):
        """The boolean padding mask where torch's nested-tensor path would zero the output
        (see the class), else None."""
        from .._ops_port import is_autocast_enabled
        from .._tensor import is_grad_enabled
        first = self.layers[0]
        if (not getattr(self, "use_nested_tensor", False) or first.training or src.dim() != 3
                or key_padding_mask is None or mask is not None or is_autocast_enabled()):
            return None
        attn = first.self_attn
        weights = (src, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight, attn.out_proj.bias,
                   first.norm1.weight, first.norm1.bias, first.norm2.weight, first.norm2.bias,
                   first.linear1.weight, first.linear1.bias, first.linear2.weight, first.linear2.bias)
        if is_grad_enabled() and any(t is not None and t.requires_grad for t in weights):
            return None
        padded = key_padding_mask if key_padding_mask.dtype.name == "bool" else key_padding_mask != 0
        # torch's mask check: every row's kept positions come first (a right-padded batch)
        if getattr(self, "mask_check", True) and bool((padded[:, :-1] & ~padded[:, 1:]).any()):
            return None
        return padded


class TransformerDecoder(Module):
    """num_layers deep copies of decoder_layer applied in turn, then norm (if given)."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=bool(tgt_is_causal),
                           memory_is_causal=memory_is_causal)
        return self.norm(output) if self.norm is not None else output


class Transformer(Module):
    """An encoder of num_encoder_layers layers and a decoder of num_decoder_layers, each
    followed by a LayerNorm; every parameter of more than one dim starts xavier-uniform."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation="relu", custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        made = {"bias": bias, "device": device, "dtype": dtype}
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, **made)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model, layer_norm_eps, **made))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, **made)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model, layer_norm_eps, **made))
        for p in self.parameters():
            if p.ndim > 1:
                init.xavier_uniform_(p)
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        batch_dim = 0 if self.batch_first else 1
        if src.ndim == 3 and src.shape[batch_dim] != tgt.shape[batch_dim]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                            memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        """The [sz, sz] float mask of -inf above the diagonal and 0 elsewhere (a query sees
        itself and the keys before it)."""
        from .. import float32
        dtype = float32 if dtype is None else dtype
        upper = _np.triu(_np.ones((sz, sz), bool), 1)
        return tensor(_np.where(upper, -_np.inf, 0.0).astype(_np.float32)).to(device=device, dtype=dtype)
