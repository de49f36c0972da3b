import torch
import torch.nn as nn

layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=True)
det(layer)
dec = nn.TransformerDecoder(layer, num_layers=2, norm=nn.LayerNorm(8))
det(dec, seed=3)
tgt = data(2, 4, 8, seed=1)
mem = data(2, 5, 8, seed=2)
tmask = nn.Transformer.generate_square_subsequent_mask(4)
mpm = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])
y = dec(tgt, mem, tgt_mask=tmask, memory_key_padding_mask=mpm, tgt_is_causal=True)
y.sum().backward()
report(y=y[1], tm=tmask, g=dec.layers[0].multihead_attn.in_proj_weight.grad[0])
# TOL 5e-4
