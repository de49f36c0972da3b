import torch

i = torch.tensor([[0, 1, 1, 2], [2, 0, 2, 1]])
v = torch.tensor([3.0, 4.0, 5.0, -1.0])
s = torch.sparse_coo_tensor(i, v, (3, 3))
d = s.to_dense()
dup = torch.sparse_coo_tensor(torch.tensor([[0, 0], [1, 1]]), torch.tensor([1.0, 2.0]), (2, 2))
co = dup.coalesce()
mm = torch.sparse.mm(s, torch.eye(3) * 2)
sm = torch.mm(s, data(3, 2))
ssum = torch.sparse.sum(s, dim=1).to_dense()
back = d.to_sparse()
adj = torch.sparse_coo_tensor(torch.tensor([[0, 1, 2, 2], [1, 2, 0, 1]]), torch.ones(4), (3, 3))
deg = torch.sparse.sum(adj, 1).to_dense()
x = data(3, 2, seed=4)
agg = torch.sparse.mm(adj, x) / deg.unsqueeze(1)
report(d=d, nnz=s._nnz(), coalesced=co.is_coalesced(), co_vals=co.values(), co_idx=co.indices(), mm=mm, sm=sm, ssum=ssum,
       back_idx=back.indices(), agg=agg, layout=str(s.layout))
