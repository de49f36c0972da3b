import torch

lens = torch.tensor([3, 5, 1, 4])
sorted_lens, idx = lens.sort(descending=True)
_, unsort = idx.sort()
x = data(4, 2, seed=1)
xs = x[idx]
back = xs[unsort]
inv = torch.empty_like(idx)
inv[idx] = torch.arange(len(idx))
report(sorted_lens=sorted_lens, idx=idx, unsort=unsort, eq=torch.equal(back, x), inv=inv, argsort=lens.argsort(stable=True))
