import torch

a = torch.tensor([[1.5, -2.25], [1e-3, 100.0]])
b = torch.arange(6).view(2, 3)
c = torch.tensor([True, False])
d = torch.tensor([1.0, float("nan"), float("inf")])
e = torch.tensor(3.14159)
f = torch.zeros(2, 0)
g = torch.tensor([1e10, 1.0])
h = torch.tensor([0.1, 0.25], dtype=torch.float64)
i = torch.tensor([1, 2], dtype=torch.int32)
req = torch.ones(2, requires_grad=True) * 2
report(a=repr(a), b=repr(b), c=repr(c), d=repr(d), e=repr(e), f=repr(f), g=repr(g), h=repr(h), i=repr(i), req=repr(req),
       s=str(torch.tensor([1.0, 2.0])), size=repr(b.shape), dt=repr(torch.float16), dev=repr(torch.device("cpu")), big=repr(torch.arange(1200.0)))
