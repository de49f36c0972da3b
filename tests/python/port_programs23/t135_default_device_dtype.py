import torch

torch.set_default_device('cpu')
a = torch.ones(2)
with torch.device('cpu'):
    b = torch.zeros(2, 2)
torch.set_default_dtype(torch.float64)
c = torch.tensor([1.5, 2.5])
d = torch.arange(3) * 0.5
lin = torch.nn.Linear(2, 2)
torch.set_default_dtype(torch.float32)
e = torch.tensor([1.5])
f = torch.get_default_dtype()
report(a=str(a.device), b=str(b.device), c=c.dtype, d=d.dtype, lin=lin.weight.dtype, e=e.dtype, f=f, i=torch.tensor([1, 2]).dtype,
       cplx=torch.tensor([1 + 2j]).dtype)
