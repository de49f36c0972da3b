import torch
import torch.nn as nn

layer = det(nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, activation="gelu", batch_first=True,
                                       layer_norm_eps=1e-12), seed=168)
x = data(2, 5, 8, seed=169)
pad = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])
layer.eval()
y = layer(x, src_key_padding_mask=pad)
layer.train()
y_tr = layer(x, src_key_padding_mask=pad)
pre = det(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=True, batch_first=True), seed=168)
z = pre(x, src_mask=nn.Transformer.generate_square_subsequent_mask(5))
z.sum().backward()
report(y=y[0, :3], same_train=bool(torch.allclose(y[0, :3], y_tr[0, :3], atol=1e-5)), z=z[1, 4], g=pre.linear1.bias.grad[:4],
       mask=nn.Transformer.generate_square_subsequent_mask(3))
