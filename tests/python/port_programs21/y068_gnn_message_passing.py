import torch
import torch.nn as nn

edge_index = torch.tensor([[0, 1, 1, 2, 3, 0], [1, 0, 2, 1, 0, 3]])
x = data(4, 3, seed=1)
lin = det(nn.Linear(3, 4), seed=2)
src, dst = edge_index
deg = torch.zeros(4).scatter_add_(0, dst, torch.ones(dst.numel()))
norm = deg.pow(-0.5)
norm[torch.isinf(norm)] = 0
w = norm[src] * norm[dst]
h = lin(x)
msg = h[src] * w.unsqueeze(-1)
out = torch.zeros(4, 4).index_add_(0, dst, msg)
out.relu().sum().backward()
adj = torch.sparse_coo_tensor(edge_index, torch.ones(6), (4, 4)).to_dense()
report(out=out.detach(), deg=deg, g=lin.weight.grad, adj=adj, agg=adj.t() @ x)
