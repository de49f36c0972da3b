import torch

vals = data(8, seed=1)
seg = torch.tensor([0, 0, 1, 1, 1, 3, 3, 2])
out = {}
for r in ("sum", "prod", "mean", "amax", "amin"):
    out[r] = torch.zeros(4).scatter_reduce(0, seg, vals, reduce=r, include_self=False)
    out[r + "_self"] = torch.ones(4).scatter_reduce(0, seg, vals, reduce=r, include_self=True)
src = vals.clone().requires_grad_()
s = torch.zeros(4).scatter_reduce(0, seg, src, reduce="amax", include_self=False)
s.sum().backward()
two = torch.zeros(2, 4).scatter_reduce(1, seg.view(2, 4), vals.view(2, 4), reduce="sum")
cnt = torch.zeros(4).index_add_(0, seg, torch.ones(8))
seg_mean = torch.zeros(4).index_add_(0, seg, vals) / cnt
report(out=out, g=src.grad, two=two, seg_mean=seg_mean, ia=torch.zeros(4, dtype=torch.long).scatter_add(0, seg, torch.arange(8)))
