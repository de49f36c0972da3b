import torch
import torch.nn as nn

edge_index = torch.tensor([[0, 1, 1, 2, 2, 3, 4, 5, 5, 6], [1, 0, 2, 1, 3, 2, 5, 4, 6, 5]])
batch = torch.tensor([0, 0, 0, 0, 1, 1, 1])
x = data(7, 3)
y = torch.tensor([1.0, 0.0])


class GINConv(nn.Module):
    def __init__(self, din, dout):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(1))
        self.mlp = nn.Sequential(nn.Linear(din, dout), nn.ReLU(), nn.Linear(dout, dout))

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        return self.mlp((1 + self.eps) * x + agg)


convs = nn.ModuleList([GINConv(3, 8), GINConv(8, 8)])
readout = nn.Linear(8, 1)
det(convs)
det(readout, seed=3)
opt = torch.optim.Adam([*convs.parameters(), *readout.parameters()], lr=0.01)
for _ in range(5):
    h = x
    for conv in convs:
        h = torch.relu(conv(h, edge_index))
    pooled = torch.zeros(2, 8).index_add_(0, batch, h)
    out = readout(pooled).squeeze(-1)
    loss = nn.functional.binary_cross_entropy_with_logits(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
report(loss=loss.item(), out=out.detach(), eps=convs[0].eps.item(), deg=torch.bincount(edge_index[1]))
