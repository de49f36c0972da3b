import torch
import torch.nn as nn
from torch.nn.utils import weight_norm, remove_weight_norm, spectral_norm

lin = det(nn.Linear(4, 3))
wn = weight_norm(lin, name="weight", dim=0)
keys = sorted(wn.state_dict().keys())
g = wn.weight_g.clone()
v_shape = wn.weight_v.shape
x = data(2, 4)
y = wn(x)
y.sum().backward()
gg = wn.weight_g.grad
remove_weight_norm(wn)
keys2 = sorted(wn.state_dict().keys())
conv = det(nn.Conv1d(2, 3, 3))
wc = weight_norm(conv)
gshape = wc.weight_g.shape
from torch.nn.utils.parametrizations import weight_norm as pweight_norm
l2 = det(nn.Linear(4, 3))
p = pweight_norm(l2)
pkeys = sorted(p.state_dict().keys())
y2 = p(x)
sn = spectral_norm(det(nn.Linear(4, 3)), n_power_iterations=5)
snkeys = sorted(sn.state_dict().keys())
report(keys=keys, g=g, v_shape=v_shape, y=y, gg=gg, keys2=keys2, gshape=gshape, pkeys=pkeys, y2=y2, same=torch.allclose(y, y2),
       snkeys=snkeys, u_shape=sn.weight_u.shape)
