import torch
import torch.nn as nn
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.1, activation="gelu", batch_first=True, norm_first=True)
enc = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm(8), enable_nested_tensor=False)
det(enc, 0, 0.2)
enc.eval()
x = data(2, 5, 8)
pad = torch.tensor([[False, False, False, True, True], [False] * 5])
with torch.no_grad():
    y = enc(x, src_key_padding_mask=pad)
    y2 = enc(x, mask=torch.triu(torch.full((5, 5), float("-inf")), diagonal=1))
cls_layer = nn.TransformerEncoderLayer(8, 2, 16, 0.0, batch_first=False)
det(cls_layer, 1, 0.2)
z = cls_layer(x.transpose(0, 1))
z.sum().backward()
report(y=y[0, :3], y2=y2[1, -1], z=z[0, 0], n=len(enc.layers), g=cls_layer.linear1.weight.grad.abs().sum(), act=getattr(enc.layers[0].activation, "__name__", type(enc.layers[0].activation).__name__))
