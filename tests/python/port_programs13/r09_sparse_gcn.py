import torch
import torch.nn as nn
N = 5
edges = torch.tensor([[0, 1, 1, 2, 3, 4, 2], [1, 0, 2, 1, 4, 3, 4]])
vals = torch.ones(edges.size(1))
A = torch.sparse_coo_tensor(edges, vals, (N, N))
A = (A + torch.sparse_coo_tensor(torch.arange(N).repeat(2, 1), torch.ones(N), (N, N))).coalesce()
deg = torch.sparse.sum(A, dim=1).to_dense()
dinv = deg.pow(-0.5)
idx = A.indices()
norm_vals = dinv[idx[0]] * A.values() * dinv[idx[1]]
A_hat = torch.sparse_coo_tensor(idx, norm_vals, (N, N))
W = det(nn.Linear(3, 2, bias=False))
x = data(N, 3)
h = torch.sparse.mm(A_hat, W(x))
h.sum().backward()
dense = A_hat.to_dense()
report(deg=deg, nnz=A._nnz(), h=h, dense=dense, g=W.weight.grad, same=torch.allclose(dense @ W(x), h), is_sparse=A_hat.is_sparse)
