import torch
import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
m.double()
d1 = [str(p.dtype) for p in m.parameters()] + [str(b.dtype) for b in m.buffers()]
m.half()
d2 = [str(b.dtype) for b in m.buffers()]
m.float()
m.to(torch.bfloat16)
d3 = str(m[0].weight.dtype)
m.to(dtype=torch.float32)
m.requires_grad_(False)
rg = [p.requires_grad for p in m.parameters()]
m.zero_grad()
x = torch.tensor([1.5, 2.5]).to(torch.int32)
y = torch.tensor([1, 2]).to(dtype=torch.float64, copy=True)
z = torch.ones(2).to(torch.zeros(1, dtype=torch.int16))
t = torch.ones(2, dtype=torch.float16).type(torch.float32)
n = torch.ones(2).new_tensor([3, 4])
s = torch.tensor(3.7).int().item()
report(d1=d1, d2=d2, d3=d3, rg=rg, x=x, y=y.dtype, z=z.dtype, t=t.dtype, n=n, ndt=n.dtype, s=s, is_fp=[torch.ones(1).is_floating_point(), torch.ones(1, dtype=torch.long).is_floating_point()],
       sz=torch.ones(1, dtype=torch.float16).element_size(), dt_is=torch.float32.is_floating_point, tp=torch.ones(1).type())
