import torch

a = torch.arange(6).view(2, 3)
b = torch.arange(6, 12).view(2, 3)
report(hs=torch.hstack([a, b]), vs=torch.vstack([a, b]), ds=torch.dstack([a, b]).shape, cs=torch.column_stack([a[0], b[0]]),
       rs=torch.row_stack([a[0], b[0]]), sp=[t.tolist() for t in torch.tensor_split(torch.arange(7), 3)],
       sp2=[t.tolist() for t in torch.tensor_split(torch.arange(7), [1, 5])], hsp=[t.shape for t in torch.hsplit(torch.arange(12).view(2, 6), 3)],
       ch=[t.shape for t in torch.arange(10).chunk(4)], un=torch.stack([a, b], -1)[1], cat_empty=torch.cat([torch.tensor([]), torch.tensor([1.0])]),
       bc=torch.broadcast_tensors(torch.ones(3, 1), torch.zeros(1, 2))[0].shape, cp=torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])),
       comb=torch.combinations(torch.tensor([1, 2, 3]), r=2), ti=torch.tril_indices(3, 3, -1), bd=torch.block_diag(torch.ones(1, 2), 2 * torch.ones(2, 1)))
