import torch
import torch.nn as nn


class TDNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Conv1d(5, 8, 3, dilation=1)
        self.l2 = nn.Conv1d(8, 8, 3, dilation=2)
        self.bn = nn.BatchNorm1d(8)
        self.fc = nn.Linear(16, 3)

    def forward(self, x):
        h = torch.relu(self.l1(x))
        h = self.bn(torch.relu(self.l2(h)))
        stats = torch.cat([h.mean(-1), h.std(-1)], dim=1)
        return self.fc(stats)


m = det(TDNN())
x = data(4, 5, 20, seed=2)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
y = torch.tensor([0, 2, 1, 0])
losses = []
for _ in range(3):
    loss = nn.functional.cross_entropy(m(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(losses=losses, rv=m.bn.running_var, out=m.eval()(x))
