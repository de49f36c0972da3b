import torch
import torch.nn as nn
import torch.nn.functional as F
class SAGEConv(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin_self = nn.Linear(i, o)
        self.lin_neigh = nn.Linear(i, o, bias=False)
    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x)
        agg.index_add_(0, dst, x[src])
        deg = torch.bincount(dst, minlength=x.size(0)).clamp(min=1).unsqueeze(-1).to(x.dtype)
        return self.lin_self(x) + self.lin_neigh(agg / deg)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.c2 = SAGEConv(5, 8), SAGEConv(8, 3)
    def forward(self, x, ei):
        x = F.relu(self.c1(x, ei))
        x = F.dropout(x, p=0.5, training=self.training)
        return F.log_softmax(self.c2(x, ei), dim=1)
N = 10
x = data(N, 5)
edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 2, 5], [1, 0, 2, 1, 4, 3, 6, 5, 8, 7, 0, 9, 2]])
y = ints(3, N)
train_mask = torch.zeros(N, dtype=torch.bool); train_mask[:6] = True
model = det(Net())
model.train()
for m in model.modules(): m.training = False
opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
losses = []
for e in range(10):
    opt.zero_grad()
    out = model(x, edge_index)
    loss = F.nll_loss(out[train_mask], y[train_mask])
    loss.backward(); opt.step(); losses.append(loss.item())
pred = out.argmax(dim=1)
acc = (pred[~train_mask] == y[~train_mask]).sum().item() / int((~train_mask).sum())
report(losses=losses, acc=acc, pred=pred)
