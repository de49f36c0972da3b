import torch

x = data(200, seed=1)
q = torch.quantile(x, torch.tensor([0.1, 0.5, 0.9]))
qn = torch.quantile(x, 0.5, interpolation="nearest")
qs = torch.quantile(data(3, 10, seed=2), 0.25, dim=1, keepdim=True)
bins = torch.linspace(-2, 2, 5)
b = torch.bucketize(x, bins)
counts = torch.bincount(b, minlength=6)
h = torch.histc(x, bins=8, min=-3, max=3)
auto = torch.histc(x, bins=4)
report(q=q, qn=qn, qs=qs, counts=counts, h=h, auto=auto, hs=h.sum().item(), nq=torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0]), 0.5))
