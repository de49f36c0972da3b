import torch

i = torch.tensor([[0, 1, 1, 2, 0], [2, 0, 2, 1, 2]])
v = torch.tensor([3.0, 4.0, 5.0, -1.0, 1.0])
s = torch.sparse_coo_tensor(i, v, (3, 3))
c = s.coalesce()
d = data(3, 2, seed=1)
mm = torch.sparse.mm(c, d)
dense = c.to_dense()
w = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
out = torch.sparse.mm(c, w)
out.sum().backward()
report(idx=c.indices(), vals=c.values(), nnz=c._nnz(), mm=mm, dense=dense,
       wg=w.grad, ssum=torch.sparse.sum(c, dim=1).to_dense(), t=c.t().to_dense(), is_s=c.is_sparse, sm=(c * 2).to_dense())
