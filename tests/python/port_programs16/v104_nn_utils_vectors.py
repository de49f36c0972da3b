import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

m = det(nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1)))
vec = parameters_to_vector(m.parameters())
vector_to_parameters(vec * 2, m.parameters())
x = data(4, 3)
out = m(x)
out.sum().backward()
gvec = torch.cat([p.grad.reshape(-1) for p in m.parameters()])
cnt = sum(p.numel() for p in m.parameters() if p.requires_grad)
m[0].weight.requires_grad_(False)
trainable = [n for n, p in m.named_parameters() if p.requires_grad]
skip = nn.utils.skip_init(nn.Linear, 3, 4)
report(vec=vec.detach(), out=out.detach(), gvec=gvec, cnt=cnt, trainable=trainable, skip_shape=list(skip.weight.shape))
