import torch

a = torch.arange(2000.0).view(40, 50) / 7
b = torch.linspace(-1, 1, 1500)
c = torch.arange(30).view(2, 3, 5)
d = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True) * 3
e = torch.tensor([1.0, 2.0], dtype=torch.float64) / 3
f = torch.tensor([1e-12, 1.0, 1e12])
g = torch.tensor([-1, 200, 3000])
h = torch.tensor([[1e-4, 2e-4]])
report(a=str(a), b=str(b), c=str(c), d=repr(d), e=repr(e), f=str(f), g=str(g), h=str(h), i=repr(torch.ones(2, 1000).sum(1)), j=repr(torch.zeros(0)),
       k=repr(torch.tensor([[]])), l=repr(torch.tensor(float("nan"))), m=repr(torch.tensor([-0.5, 0.5]).half()))
