import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
m = det(nn.Linear(2, 2))
m.to(device)
m.to(torch.float64)
dt = m.weight.dtype
m.float()
t = torch.ones(2, dtype=torch.int32)
res = [t.to(torch.float16).dtype, t.to("cpu", torch.float64).dtype, t.to(torch.zeros(1, dtype=torch.bool)).dtype, t.double().dtype,
       t.type(torch.float32).dtype, t.type(), torch.ones(1).type(), m.weight.device.type, next(m.parameters()).is_cpu or torch.cuda.is_available()]
x = torch.ones(2, requires_grad=True)
y = x.to(torch.float64)
y.sum().backward()
report(dt=dt, res=res, g=x.grad, gfn=type(y.grad_fn).__name__, same=t.to(torch.int32) is t, copy=t.to(torch.int32, copy=True) is t)
