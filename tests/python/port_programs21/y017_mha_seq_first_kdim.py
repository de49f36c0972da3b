import torch
import torch.nn as nn

mha = det(nn.MultiheadAttention(4, 2, kdim=3, vdim=5, dropout=0.0), seed=3)
q = data(3, 2, 4, seed=1)
k = data(6, 2, 3, seed=2)
v = data(6, 2, 5, seed=3)
out, w = mha(q, k, v)
names = sorted(n for n, _ in mha.named_parameters())
loss = out.pow(2).sum()
loss.backward()
report(out=out, w=w, names=names, g=mha.q_proj_weight.grad.sum().item(), outshape=list(out.shape),
       unb=mha(q[:, 0], k[:, 0], v[:, 0])[0])
