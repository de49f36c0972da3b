import torch
torch.set_default_dtype(torch.float64)
a = torch.tensor([1.5, 2.0])
b = torch.zeros(2)
c = torch.arange(0.0, 1.0, 0.5)
d = torch.tensor([1, 2]) * 1.5
e = torch.linspace(0, 1, 3)
f = torch.nn.Linear(2, 1).weight.dtype
g = torch.tensor(1j).dtype
torch.set_default_dtype(torch.float32)
report(a=a.dtype, b=b.dtype, c=c.dtype, d=d.dtype, e=e.dtype, f=f, g=g, h=torch.get_default_dtype(), i=torch.tensor([1.0]).dtype)
