import torch
import torch.nn as nn
import torch.nn.functional as F
class GATLayer(nn.Module):
    def __init__(self, i, o, heads=2):
        super().__init__()
        self.h, self.o = heads, o
        self.W = nn.Linear(i, heads * o, bias=False)
        self.a_src = nn.Parameter(torch.empty(1, heads, o))
        self.a_dst = nn.Parameter(torch.empty(1, heads, o))
        nn.init.xavier_uniform_(self.a_src); nn.init.xavier_uniform_(self.a_dst)
    def forward(self, x, ei):
        N = x.size(0)
        h = self.W(x).view(N, self.h, self.o)
        src, dst = ei
        e = (h * self.a_src).sum(-1)[src] + (h * self.a_dst).sum(-1)[dst]
        e = F.leaky_relu(e, 0.2)
        emax = torch.full((N, self.h), float("-inf")).scatter_reduce(0, dst.unsqueeze(-1).expand(-1, self.h), e, reduce="amax", include_self=True)
        ex = (e - emax[dst]).exp()
        denom = torch.zeros(N, self.h).scatter_add_(0, dst.unsqueeze(-1).expand_as(ex), ex)
        alpha = ex / denom[dst]
        out = torch.zeros(N, self.h, self.o).index_add_(0, dst, h[src] * alpha.unsqueeze(-1))
        return out.mean(1), alpha
N = 6
ei = torch.tensor([[0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 0, 0, 1, 2, 3, 4, 5]])
layer = det(GATLayer(4, 3))
x = data(N, 4)
out, alpha = layer(x, ei)
out.pow(2).sum().backward()
report(out=out, alpha=alpha, g=layer.a_src.grad, colsum=torch.zeros(N).index_add(0, ei[1], alpha[:, 0]))
