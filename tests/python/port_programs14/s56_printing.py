import torch

a = torch.tensor([[1.0, 2.5], [3.25, -4.0]])
b = torch.tensor([1, 2, 3])
c = torch.tensor([True, False])
d = torch.tensor([1e-5, 1e5])
e = torch.tensor(3.14159)
f = torch.zeros(2, 3, dtype=torch.float64)
g = torch.tensor([1.0, 2.0], requires_grad=True)
h = g * 2
i = torch.tensor([0.1, 0.25], dtype=torch.float16)
k = torch.empty(0, 3)
strs = [str(a), repr(b), str(c), str(d), str(e), str(f), repr(g), repr(h), str(i), repr(k), str(a.shape), str(a.dtype),
        str(torch.int64), repr(a.size()), str(torch.tensor(5)), repr(torch.tensor([float("nan"), float("inf"), -float("inf")]))]
torch.set_printoptions(precision=2)
strs.append(str(torch.tensor([1.23456, 2.0])))
torch.set_printoptions(precision=4, sci_mode=True)
strs.append(str(torch.tensor([1.5, 250.0])))
torch.set_printoptions(profile="default")
strs.append(str(torch.arange(2000.0)))
report(strs=strs, fmt=f"{e.item():.3f}", fmt2=f"{e:.2f}", item=b[1].item(), tolist=a.tolist(), intx=int(b[2]), floatx=float(a[0, 1]))
