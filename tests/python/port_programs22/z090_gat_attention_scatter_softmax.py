import torch
import torch.nn as nn
import torch.nn.functional as F

def scatter_softmax(src, index, num_nodes):
    idx = index.unsqueeze(-1).expand_as(src)
    mx = torch.full((num_nodes, src.size(1)), float("-inf")).scatter_reduce(0, idx, src, reduce="amax", include_self=True)
    e = (src - mx[index]).exp()
    denom = torch.zeros(num_nodes, src.size(1)).scatter_add_(0, idx, e)
    return e / denom[index]

class GATLayer(nn.Module):
    def __init__(self, i, o, heads=2):
        super().__init__()
        self.h, self.o = heads, o
        self.lin = nn.Linear(i, heads * o, bias=False)
        self.att_src = nn.Parameter(torch.ones(1, heads, o) * 0.3)
        self.att_dst = nn.Parameter(torch.ones(1, heads, o) * -0.2)

    def forward(self, x, edge_index):
        n = x.size(0)
        h = self.lin(x).view(n, self.h, self.o)
        a_src = (h * self.att_src).sum(-1)
        a_dst = (h * self.att_dst).sum(-1)
        src, dst = edge_index
        alpha = F.leaky_relu(a_src[src] + a_dst[dst], 0.2)
        alpha = scatter_softmax(alpha, dst, n)
        msg = h[src] * alpha.unsqueeze(-1)
        out = torch.zeros(n, self.h, self.o).index_add_(0, dst, msg)
        return out.mean(1), alpha

ei = torch.tensor([[0, 1, 2, 3, 0, 2, 1, 3, 0, 1, 2, 3], [1, 0, 1, 2, 2, 3, 3, 0, 0, 1, 2, 3]])
layer = det(GATLayer(3, 4), seed=127)
x = data(4, 3, seed=128)
out, alpha = layer(x, ei)
out.pow(2).sum().backward()
sums = torch.zeros(4, 2).index_add_(0, ei[1], alpha)
report(out=out, alpha=alpha[:5], sums=sums, g=layer.att_src.grad)
