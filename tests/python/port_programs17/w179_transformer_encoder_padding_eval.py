import torch
import torch.nn as nn

layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True, activation="gelu")
enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
det(enc)
x = data(2, 5, 8, seed=1)
pad = torch.tensor([[False, False, False, True, True], [False] * 5])
enc.eval()
with torch.no_grad():
    y = enc(x, src_key_padding_mask=pad)
enc.train()
y2 = enc(x, src_key_padding_mask=pad)
y2[~pad].sum().backward()
report(y=y[0, :3], same=torch.allclose(y[~pad], y2[~pad].detach(), atol=1e-5), g=enc.layers[1].linear2.bias.grad)
# TOL 5e-4
