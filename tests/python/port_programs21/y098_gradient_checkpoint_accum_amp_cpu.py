import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

block = det(nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 4)), seed=1)
head = det(nn.Linear(4, 1), seed=2)
x = data(6, 4, seed=3).requires_grad_()
h = checkpoint(block, x, use_reentrant=False)
loss = head(h).pow(2).mean()
loss.backward()
g_ck = block[0].weight.grad.clone()
block.zero_grad()
head(block(x)).pow(2).mean().backward()
with torch.autocast("cpu", dtype=torch.bfloat16):
    y = block(data(2, 4, seed=4))
report(same=torch.allclose(g_ck, block[0].weight.grad, atol=1e-6), g=g_ck[0], xg=x.grad.shape, ydt=y.dtype,
       yv=y.float(), loss=loss.item())
# TOL 1e-2
