import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters, clip_grad_norm_, clip_grad_value_

net = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)))
vec = parameters_to_vector(net.parameters())
vector_to_parameters(vec * 2, net.parameters())
x = data(5, 3)
loss = net(x).pow(2).sum()
loss.backward()
grads = [p.grad.clone() for p in net.parameters()]
n_inf = clip_grad_norm_(net.parameters(), max_norm=0.5, norm_type=float("inf"))
g_inf = net[0].weight.grad.clone()
for p, g in zip(net.parameters(), grads):
    p.grad = g.clone()
n2 = clip_grad_norm_(net.parameters(), 1.0)
g2 = net[2].bias.grad.clone()
for p, g in zip(net.parameters(), grads):
    p.grad = g.clone()
clip_grad_value_(net.parameters(), clip_value=0.1)
gv = net[0].bias.grad.clone()
net[0].weight.grad[0, 0] = float("nan")
try:
    clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
    err = None
except RuntimeError as e:
    err = "non-finite" in str(e)
flat = torch.cat([g.flatten() for g in grads])
report(nvec=vec.numel(), w=net[0].weight[0], n_inf=n_inf, g_inf=g_inf[0], n2=n2, g2=g2, gv=gv, err=err,
       total=flat.norm(), single=clip_grad_norm_(nn.Parameter(torch.ones(1)), 1.0))
