import torch
import torch.nn as nn

edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 2], [1, 0, 2, 1, 4, 3, 0]])
num_nodes = 5
x = data(num_nodes, 4, seed=28)
loops = torch.arange(num_nodes)
ei = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
row, col = ei
deg = torch.zeros(num_nodes).index_add_(0, col, torch.ones(col.size(0)))
deg_inv_sqrt = deg.pow(-0.5)
deg_inv_sqrt[deg_inv_sqrt == float("inf")] = 0
norm = deg_inv_sqrt[row] * deg_inv_sqrt[col]

class GCNConv(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin = nn.Linear(i, o, bias=False)
        self.bias = nn.Parameter(torch.zeros(o))

    def forward(self, x):
        h = self.lin(x)
        msg = norm.view(-1, 1) * h[row]
        out = torch.zeros_like(h).index_add_(0, col, msg)
        return out + self.bias

net = det(nn.ModuleList([GCNConv(4, 8), GCNConv(8, 2)]), seed=29)
h = torch.relu(net[0](x))
out = net[1](h)
loss = nn.functional.cross_entropy(out, torch.tensor([0, 1, 0, 1, 1]))
loss.backward()
report(deg=deg, norm=norm, out=out, loss=loss, g=net[0].lin.weight.grad[0])
