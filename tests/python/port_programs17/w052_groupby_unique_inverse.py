import torch

keys = torch.tensor([3, 1, 3, 2, 1, 3, 7])
vals = data(7, seed=2)
uniq, inv, counts = torch.unique(keys, sorted=True, return_inverse=True, return_counts=True)
sums = torch.zeros(len(uniq)).index_add(0, inv, vals)
means = sums / counts
mx = torch.full((len(uniq),), float("-inf")).scatter_reduce(0, inv, vals, "amax")
order = torch.argsort(keys, stable=True)
uc, cc = torch.unique_consecutive(keys[order], return_counts=True)
first = torch.zeros(len(uniq), dtype=torch.long).scatter_(0, inv.flip(0), torch.arange(7).flip(0))
report(uniq=uniq, inv=inv, counts=counts, means=means, mx=mx, order=order, uc=uc, cc=cc, first=first)
