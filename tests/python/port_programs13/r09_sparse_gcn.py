import torch
import torch.nn as nn
# GCN normalization. The program was written with torch.sparse_coo_tensor / torch.sparse.mm;
# meshflow has no sparse tensors (docs/porting.md, "What differs"), so the adjacency is built
# dense as that entry says (index_put_ with accumulate, as coalesce() sums duplicates).
N = 5
edges = torch.tensor([[0, 1, 1, 2, 3, 4, 2], [1, 0, 2, 1, 4, 3, 4]])
vals = torch.ones(edges.size(1))
A = torch.zeros(N, N).index_put_((edges[0], edges[1]), vals, accumulate=True)
A = A + torch.eye(N)
deg = A.sum(dim=1)
dinv = deg.pow(-0.5)
idx = A.nonzero().t()
norm_vals = dinv[idx[0]] * A[idx[0], idx[1]] * dinv[idx[1]]
A_hat = torch.zeros(N, N).index_put_((idx[0], idx[1]), norm_vals)
W = det(nn.Linear(3, 2, bias=False))
x = data(N, 3)
h = torch.mm(A_hat, W(x))
h.sum().backward()
dense = dinv[:, None] * A * dinv[None, :]
report(deg=deg, nnz=idx.size(1), h=h, dense=dense, g=W.weight.grad, same=torch.allclose(dense @ W(x), h))
