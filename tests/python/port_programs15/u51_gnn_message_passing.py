import torch
import torch.nn as nn


class GCNLayer(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout, bias=False)
        self.bias = nn.Parameter(torch.zeros(cout))

    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n).unsqueeze(0).repeat(2, 1)
        ei = torch.cat([edge_index, loops], dim=1)
        row, col = ei
        deg = torch.zeros(n).scatter_add_(0, col, torch.ones(col.size(0)))
        dinv = deg.pow(-0.5)
        dinv[torch.isinf(dinv)] = 0
        norm = dinv[row] * dinv[col]
        h = self.lin(x)
        out = torch.zeros_like(h).index_add_(0, col, h[row] * norm.view(-1, 1))
        return out + self.bias


class GAT(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.W = nn.Linear(cin, cout, bias=False)
        self.a = nn.Parameter(torch.randn(2 * cout) * 0 + 0.1)

    def forward(self, x, ei):
        h = self.W(x)
        src, dst = ei
        e = nn.functional.leaky_relu(torch.cat([h[src], h[dst]], 1) @ self.a, 0.2)
        emax = torch.full((x.size(0),), -1e9).scatter_reduce(0, dst, e, reduce="amax", include_self=True)
        w = (e - emax[dst]).exp()
        denom = torch.zeros(x.size(0)).index_add(0, dst, w)
        alpha = w / denom[dst]
        return torch.zeros_like(h).index_add(0, dst, alpha.unsqueeze(1) * h[src])


edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 2], [1, 0, 2, 1, 4, 3, 4]])
x = data(5, 4)
g1 = det(GCNLayer(4, 6))
g2 = det(GAT(6, 3), seed=2)
opt = torch.optim.Adam(list(g1.parameters()) + list(g2.parameters()), lr=0.01)
labels = torch.tensor([0, 0, 1, 2, 2])
hist = []
for _ in range(3):
    out = g2(torch.relu(g1(x, edge_index)), edge_index)
    loss = nn.functional.cross_entropy(out, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
pool = torch.zeros(2, 3).index_reduce_(0, torch.tensor([0, 0, 1, 1, 1]), out.detach(), "mean", include_self=False)
report(hist=hist, out=out, pool=pool)
