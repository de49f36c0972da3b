import torch

x = torch.tensor([[2.0, 5.0, 5.0, 1.0, 5.0], [0.0, 0.0, -1.0, -1.0, 3.0]])
report(argmax=x.argmax(1), argmin=x.argmin(1), max_idx=x.max(1).indices, min_idx=x.min(1).indices, topk=x.topk(2, dim=1).indices,
       topk_sorted_false=x.topk(3, dim=1, sorted=True).values, kth=torch.kthvalue(x, 2, dim=1).indices, mode=list(torch.mode(x, dim=1)),
       median=list(torch.median(x, dim=1)), sort_desc=x.sort(dim=1, descending=True, stable=True).indices, unique_dim1=torch.unique(x, dim=1, return_inverse=True)[1],
       argmax_flat=x.argmax().item(), max_keep=x.max(dim=1, keepdim=True).values.shape, amax_tie_grad=None)
