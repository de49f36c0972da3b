import torch
i = torch.tensor([[0, 1, 1, 0], [2, 0, 2, 2]])
v = torch.tensor([3.0, 4.0, 5.0, 1.0])
s = torch.sparse_coo_tensor(i, v, (2, 3))
c = s.coalesce()
d = s.to_dense()
report(d=d, nnz=c._nnz(), idx=c.indices(), vals=c.values(), is_sp=s.is_sparse, mm=torch.sparse.mm(c, torch.ones(3, 2)), sd=torch.eye(3).to_sparse().to_dense(),
       summ=torch.sparse.sum(c), layout=str(s.layout), coal=[s.is_coalesced(), c.is_coalesced()], add=(c + c).to_dense(), mul=(c * 2).to_dense())
