import torch

edges = torch.tensor([[0, 1], [1, 0], [0, 1], [2, 3], [3, 2], [2, 3]])
und = torch.sort(edges, dim=1).values
uniq, inv, cnt = torch.unique(und, dim=0, return_inverse=True, return_counts=True)
vocab = torch.tensor([5, 9, 5, 2, 9, 9, 7])
ids, remap = torch.unique(vocab, return_inverse=True)
first_idx = torch.zeros_like(ids).scatter_reduce(0, remap, torch.arange(7), reduce="amin", include_self=False)
report(uniq=uniq, inv=inv, cnt=cnt, ids=ids, remap=remap, first=first_idx, sorted_false=torch.unique(vocab, sorted=True),
       isin=torch.isin(vocab, torch.tensor([9, 2])), isin_inv=torch.isin(vocab, torch.tensor([9, 2]), invert=True))
