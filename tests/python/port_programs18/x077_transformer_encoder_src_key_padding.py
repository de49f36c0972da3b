import torch
import torch.nn as nn

layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
enc = det(nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False), scale=0.3)
x = data(2, 5, 8, seed=2)
pad = torch.tensor([[False] * 5, [False, False, False, True, True]])
y = enc(x, src_key_padding_mask=pad)
mask = nn.Transformer.generate_square_subsequent_mask(5)
y2 = enc(x, mask=mask, is_causal=True)
report(y=y[1, :3, :4], y2=y2[0, 0], n_layers=len(enc.layers), norm=enc.norm is None)
