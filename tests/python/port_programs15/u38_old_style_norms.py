import torch
import torch.nn as nn
from torch.nn.utils import weight_norm, remove_weight_norm

conv = det(nn.Conv1d(3, 4, 3))
conv = weight_norm(conv)
keys = sorted(conv.state_dict().keys())
g_shape = conv.weight_g.shape
x = data(2, 3, 7)
y = conv(x)
y.pow(2).mean().backward()
gg = conv.weight_g.grad.flatten()
remove_weight_norm(conv)
keys_after = sorted(conv.state_dict().keys())
y2 = conv(x)
lin = weight_norm(det(nn.Linear(3, 2), seed=3), dim=None)
report(keys=keys, g_shape=g_shape, y=y[0, :, 0], gg=gg, keys_after=keys_after, same=torch.allclose(y, y2, atol=1e-6),
       g_scalar=lin.weight_g.shape, lin=lin(data(1, 3)))
