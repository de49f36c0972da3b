"""A GPT written once, for every parallel layout.

The model is ordinary module code over global tensors. Parallelism is only the SBP each
parameter and the input get (`parameter_sbp`, `input_sbp`) on a 2-d mesh (data, model):
- data axis: parameters broadcast, the batch split: S(0). Weight gradients come out partial
  and boxing all-reduces them into the parameters' B layout.
- model axis (Megatron): the fused qkv and first MLP weights are split by output rows
  (column parallel, S(0) of [out, in]), the attention and MLP output projections by input
  columns (row parallel, S(1)), so each block half ends partial and one all-reduce makes it
  whole. Attention heads follow from the qkv split: the qkv rows are ordered head by head,
  so a rank's rows are whole heads. The token embedding and the head are split by
  vocabulary (S(0)); the loss is vocabulary-parallel, never gathering the logits.
"""
import math

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F
from meshflow.utils.checkpoint import checkpoint


class Config:
    def __init__(self, vocab_size=256, block_size=128, n_layer=4, n_head=4, n_embd=256, dropout=0.0):
        if n_embd % n_head:
            raise ValueError(f"n_embd {n_embd} does not divide into n_head {n_head} heads")
        self.vocab_size, self.block_size = vocab_size, block_size
        self.n_layer, self.n_head, self.n_embd, self.dropout = n_layer, n_head, n_embd, dropout


class CausalSelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.n_head, self.head_dim = cfg.n_head, cfg.n_embd // cfg.n_head
        # Rows of qkv: head 0's q, k, v, then head 1's, ... (so a row split keeps heads whole).
        self.qkv = nn.Linear(cfg.n_embd, 3 * cfg.n_embd)
        self.proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, x):
        b, t, c = x.shape
        d = self.head_dim
        qkv = self.qkv(x).reshape(b, t, self.n_head, 3 * d)
        if self.dropout.p == 0 or not self.training:
            # Fused, reading q, k, v in place: no [b, h, t, t] tensor, no slices or permutes.
            y = F.packed_qkv_attention(qkv, is_causal=True).reshape(b, t, c)
        else:  # dropout on the attention probabilities needs them
            q, k, v = (qkv[:, :, :, i * d:(i + 1) * d].permute(0, 2, 1, 3) for i in range(3))  # [b, h, t, d]
            scores = mf.matmul(q, k, transpose_b=True) * (1.0 / math.sqrt(d))
            y = self.dropout(F.softmax(scores, dim=-1, causal=True)) @ v
            y = y.permute(0, 2, 1, 3).reshape(b, t, c)
        return self.dropout(self.proj(y))


class MLP(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.fc = nn.Linear(cfg.n_embd, 4 * cfg.n_embd)
        self.gelu = nn.GELU()
        self.proj = nn.Linear(4 * cfg.n_embd, cfg.n_embd)
        self.dropout = nn.Dropout(cfg.dropout)

    def forward(self, x):
        return self.dropout(self.proj(self.gelu(self.fc(x))))


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln_1 = nn.LayerNorm(cfg.n_embd)
        self.attn = CausalSelfAttention(cfg)
        self.ln_2 = nn.LayerNorm(cfg.n_embd)
        self.mlp = MLP(cfg)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.wte = nn.Embedding(cfg.vocab_size, cfg.n_embd)
        self.wpe = nn.Embedding(cfg.block_size, cfg.n_embd)
        self.drop = nn.Dropout(cfg.dropout)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layer))
        self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        # Activation checkpointing (eager): each block keeps only its input for backward,
        # which runs the block again (mf.utils.checkpoint).
        self.checkpoint_activations = False
        self._init_weights()

    def _init_weights(self):
        # GPT-2's: N(0, 0.02) weights, zero biases, residual projections scaled by depth.
        std = 0.02
        with mf.no_grad():
            for name, p in self.named_parameters():
                if name.endswith("bias"):
                    value = mf.zeros(*p.shape)
                elif ".ln_" in name or name.startswith("ln_"):
                    value = mf.ones(*p.shape)
                else:
                    scale = std / math.sqrt(2 * self.cfg.n_layer) if name.endswith("proj.weight") else std
                    value = mf.randn(*p.shape) * scale
                p.data = value

    def forward(self, idx, targets=None):
        b, t = idx.shape
        if t > self.cfg.block_size:
            raise ValueError(f"sequence of {t} tokens is longer than block_size {self.cfg.block_size}")
        pos = mf.arange(t, placement=idx.placement, sbp=[mf.sbp.broadcast] * len(idx.sbp)) \
            if idx.is_global else mf.arange(t)
        x = self.drop(self.wte(idx) + self.wpe(pos))
        for block in self.blocks:
            x = _to_stage_of(block, x)
            x = checkpoint(block, x) if self.checkpoint_activations and self.training else block(x)
        logits = self.lm_head(self.ln_f(_to_stage_of(self.ln_f, x)))
        if targets is None:
            return logits
        return F.cross_entropy(logits.reshape(b * t, -1), targets.reshape(b * t))


def _to_stage_of(module, x):
    """x moved to the placement of module's parameters (the next pipeline stage), with its
    SBP; unchanged when it is there already."""
    p = next(iter(module.parameters()), None)
    if p is None or not x.is_global or p.placement == x.placement:
        return x
    return x.to_global(placement=p.placement, sbp=x.sbp)


def stage_layers(n_layer, n_stages):
    """How many blocks each pipeline stage holds: as even as possible, the first stages one
    more when they do not divide (the embeddings ride with the first stage, the final norm,
    head and loss with the last)."""
    return [n_layer // n_stages + (1 if s < n_layer % n_stages else 0) for s in range(n_stages)]


def place(model, stages, sbp=None):
    """Puts the model's parameters on pipeline stages (placements of one shape): the
    embeddings on the first, the blocks spread by stage_layers, the final norm and the head
    on the last; each parameter gets sbp(name, parameter) (parameter_sbp by default) there."""
    sbp = sbp or parameter_sbp
    parts = [("wte.", model.wte, 0), ("wpe.", model.wpe, 0)]
    layer = 0
    for s, count in enumerate(stage_layers(len(model.blocks), len(stages))):
        for _ in range(count):
            parts.append((f"blocks.{layer}.", model.blocks[layer], s))
            layer += 1
    parts += [("ln_f.", model.ln_f, len(stages) - 1), ("lm_head.", model.lm_head, len(stages) - 1)]
    for prefix, module, s in parts:
        module.to_global(stages[s], lambda name, p, prefix=prefix: sbp(prefix + name, p))


def parameter_sbp(name, param):
    """The 2-d SBP (data axis, model axis) of each GPT parameter: Megatron's layout."""
    column = name.endswith(("attn.qkv.weight", "attn.qkv.bias", "mlp.fc.weight", "mlp.fc.bias"))
    row = name.endswith(("attn.proj.weight", "mlp.proj.weight"))
    vocab = name in ("wte.weight", "lm_head.weight")
    model = mf.sbp.split(0) if column or vocab else mf.sbp.split(1) if row else mf.sbp.broadcast
    return (mf.sbp.broadcast, model)


def input_sbp():
    """Token batches: rows split over the data axis, whole on the model axis."""
    return (mf.sbp.split(0), mf.sbp.broadcast)
