import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

blocks = nn.Sequential(*[nn.Sequential(nn.Linear(4, 4), nn.Tanh()) for _ in range(4)])
det(blocks)
x = data(3, 4, seed=1).requires_grad_()
ref = blocks(x)
ref.sum().backward()
g_ref = x.grad.clone()
w_ref = blocks[0][0].weight.grad.clone()
x.grad = None
blocks.zero_grad()
h = x
for b in blocks:
    h = checkpoint(b, h, use_reentrant=False)
h.sum().backward()
g1 = x.grad.clone()
x.grad = None
blocks.zero_grad()
out = checkpoint_sequential(blocks, 2, x, use_reentrant=False)
out.sum().backward()
report(same_out=torch.allclose(ref, h), g=torch.allclose(g_ref, g1), g2=torch.allclose(g_ref, x.grad),
       w=torch.allclose(w_ref, blocks[0][0].weight.grad), gx=x.grad[0])
