import torch

i = torch.tensor([[0, 1, 1], [2, 0, 2]])
v = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
s = torch.sparse_coo_tensor(i, v, (2, 3, 2))
d = s.to_dense()
sum0 = torch.sparse.sum(s, dim=0)
sum2 = torch.sparse.sum(s, dim=2)
full = torch.sparse.sum(s)
sm = torch.sparse.softmax(torch.sparse_coo_tensor(i, torch.tensor([1.0, 2.0, 3.0]), (2, 3)), dim=1).to_dense()
report(d=d, sum0=sum0.to_dense() if sum0.is_sparse else sum0, sum2=sum2.to_dense() if sum2.is_sparse else sum2, full=full.item(), sm=sm,
       sd=(s.sparse_dim(), s.dense_dim()), scaled=(s * 2).to_dense()[1], nnz=s._nnz(), neg=(-s).to_dense()[0, 2])
