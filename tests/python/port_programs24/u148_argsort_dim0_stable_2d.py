import torch

m = torch.tensor([[3, 1, 2], [1, 1, 2], [3, 0, 2], [1, 1, 1]])
report(dim0=torch.argsort(m, dim=0, stable=True), dim0_desc=torch.argsort(m, dim=0, descending=True, stable=True), sort_vals=torch.sort(m, dim=0).values,
       lex_rows=m[torch.argsort(m[:, 1], stable=True)][torch.argsort(m[torch.argsort(m[:, 1], stable=True)][:, 0], stable=True)],
       unique_rows=torch.unique(m, dim=0), unique_inverse=torch.unique(m, dim=0, return_inverse=True)[1], topk_dim0=m.float().topk(2, dim=0).indices,
       sort_bool=torch.sort(torch.tensor([True, False, True, False]), stable=True).indices)
