import torch
import torch.nn as nn
edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 4, 0], [1, 0, 2, 1, 4, 3, 0, 4]])
num_nodes = 5
x = data(num_nodes, 4)
class GCNLayer(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin = nn.Linear(i, o, bias=False); self.bias = nn.Parameter(torch.zeros(o))
    def forward(self, x, edge_index):
        loops = torch.arange(x.size(0)).unsqueeze(0).repeat(2, 1)
        ei = torch.cat([edge_index, loops], dim=1)
        row, col = ei
        deg = torch.zeros(x.size(0)).scatter_add_(0, col, torch.ones(col.size(0)))
        dis = deg.pow(-0.5); dis[dis == float('inf')] = 0
        norm = dis[row] * dis[col]
        h = self.lin(x)
        out = torch.zeros_like(h).index_add_(0, col, h[row] * norm.view(-1, 1))
        return out + self.bias
class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = GCNLayer(4, 8); self.c2 = GCNLayer(8, 3)
    def forward(self, x, ei):
        return torch.log_softmax(self.c2(torch.relu(self.c1(x, ei)), ei), dim=1)
model = det(GCN(), 0, 0.5)
opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
y = torch.tensor([0, 1, 2, 1, 0]); train_mask = torch.tensor([True, True, False, True, False])
losses = []
for _ in range(5):
    opt.zero_grad(); out = model(x, edge_index)
    loss = nn.functional.nll_loss(out[train_mask], y[train_mask]); loss.backward(); opt.step(); losses.append(loss.item())
pred = out.argmax(dim=1)
acc = int((pred[~train_mask] == y[~train_mask]).sum()) / int((~train_mask).sum())
adj = torch.zeros(num_nodes, num_nodes); adj[edge_index[0], edge_index[1]] = 1
mx = torch.full((num_nodes, 4), -float("inf")).scatter_reduce(0, edge_index[1].unsqueeze(1).expand(-1, 4), x[edge_index[0]], reduce="amax")
report(losses=losses, pred=pred, acc=acc, adj=adj, deg=adj.sum(1), mx=mx)
