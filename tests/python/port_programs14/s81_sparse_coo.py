import torch
# The program was written with torch.sparse_coo_tensor, torch.sparse.mm, to_sparse() and
# coalesce(): meshflow has no sparse tensors (docs/porting.md, "What differs"), so the COO
# triplets are made dense with index_put_ (accumulate, as coalesce() sums duplicates), and the
# nonzeros read back with nonzero().
i = torch.tensor([[0, 1, 1, 2], [2, 0, 2, 1]])
v = torch.tensor([3.0, 4.0, 5.0, -1.0])
dense = torch.zeros(3, 3).index_put_((i[0], i[1]), v, accumulate=True)
x = data(3, 2)
y = dense @ x
z = torch.mm(dense, x)
dup = torch.zeros(2, 2).index_put_((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.tensor([1.0, 2.0]), accumulate=True)
nz = dup.nonzero().t()
idx = dense.nonzero().t()
report(dense=dense, y=y, z=z, same=torch.allclose(y, z), nnz=i.size(1), dup=dup[nz[0], nz[1]], dupi=nz,
       sd_vals=dense[idx[0], idx[1]], ssum=dense.sum())
