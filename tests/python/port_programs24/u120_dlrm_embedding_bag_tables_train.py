import torch
import torch.nn as nn


class Tables(nn.Module):
    def __init__(self, sizes, d):
        super().__init__()
        self.bags = nn.ModuleList(nn.EmbeddingBag(n, d, mode="sum") for n in sizes)

    def forward(self, lS_i, lS_o):
        return [bag(i, o) for bag, i, o in zip(self.bags, lS_i, lS_o)]


tables = det(Tables([6, 4], 3))
top = det(nn.Linear(3 + 3 + 1, 1), seed=5)
lS_i = [torch.tensor([0, 2, 5, 1, 1]), torch.tensor([3, 0, 2])]
lS_o = [torch.tensor([0, 3, 3]), torch.tensor([0, 1, 2])]
dense = data(3, 1)
y = torch.tensor([1.0, 0.0, 1.0])
opt = torch.optim.SGD(list(tables.parameters()) + list(top.parameters()), lr=0.5)
hist = []
for _ in range(4):
    ly = tables(lS_i, lS_o)
    z = torch.cat([dense] + ly, 1)
    p = torch.sigmoid(top(z)).squeeze(1)
    loss = nn.functional.binary_cross_entropy(p, y)
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
report(hist=hist, ly0=ly[0], untouched=tables.bags[0].weight[4], row_grads=tables.bags[0].weight.grad.abs().sum(1))
