import torch
import torch.nn as nn
import torch.nn.functional as F
edge_index = torch.tensor([[0, 1, 1, 2, 2, 3, 3, 4, 0, 4], [1, 0, 2, 1, 3, 2, 4, 3, 4, 0]])
N = 6
x = data(N, 3)
y = torch.tensor([0, 1, 0, 1, 0, 1])
class GCNLayer(nn.Module):
    def __init__(self, i, o):
        super().__init__(); self.lin = nn.Linear(i, o, bias=False); self.bias = nn.Parameter(torch.zeros(o))
    def forward(self, x, edge_index):
        loops = torch.arange(x.size(0)).unsqueeze(0).repeat(2, 1)
        ei = torch.cat([edge_index, loops], dim=1)
        row, col = ei
        deg = torch.bincount(col, minlength=x.size(0)).float()
        dinv = deg.pow(-0.5)
        dinv[torch.isinf(dinv)] = 0
        norm = dinv[row] * dinv[col]
        h = self.lin(x)
        out = torch.zeros_like(h).index_add_(0, col, h[row] * norm.view(-1, 1))
        return out + self.bias
class GCN(nn.Module):
    def __init__(self):
        super().__init__(); self.c1 = GCNLayer(3, 8); self.c2 = GCNLayer(8, 2)
    def forward(self, x, ei):
        return self.c2(F.dropout(F.relu(self.c1(x, ei)), p=0.5, training=False), ei)
model = det(GCN(), scale=0.5)
opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
train_mask = torch.tensor([True, True, True, False, False, False])
hist = []
for epoch in range(6):
    opt.zero_grad(); out = model(x, edge_index); loss = F.cross_entropy(out[train_mask], y[train_mask]); loss.backward(); opt.step(); hist.append(loss.item())
model.eval()
pred = model(x, edge_index).argmax(dim=1)
acc = int((pred[~train_mask] == y[~train_mask]).sum()) / int((~train_mask).sum())
adj = torch.zeros(N, N); adj[edge_index[0], edge_index[1]] = 1
adj2 = torch.zeros(N, N).index_put_((edge_index[0], edge_index[1]), torch.ones(edge_index.size(1)), accumulate=True)
deg_in = torch.zeros(N, dtype=torch.long).scatter_add_(0, edge_index[1], torch.ones_like(edge_index[1]))
agg = torch.zeros(N, 3).scatter_reduce(0, edge_index[1].unsqueeze(1).expand(-1, 3), x[edge_index[0]], reduce="amax", include_self=False)
report(hist=hist, pred=pred, acc=acc, adj=adj, same=torch.equal(adj, adj2), deg_in=deg_in, agg=agg, eye=(adj @ adj).diagonal())
