import torch
import torch.nn as nn
from torch.nn.utils import weight_norm


class Chomp1d(nn.Module):
    def __init__(self, chomp):
        super().__init__()
        self.chomp = chomp

    def forward(self, x):
        return x[:, :, :-self.chomp].contiguous()


class TemporalBlock(nn.Module):
    def __init__(self, cin, cout, k, dilation):
        super().__init__()
        pad = (k - 1) * dilation
        self.net = nn.Sequential(weight_norm(nn.Conv1d(cin, cout, k, padding=pad, dilation=dilation)), Chomp1d(pad), nn.ReLU(),
                                 weight_norm(nn.Conv1d(cout, cout, k, padding=pad, dilation=dilation)), Chomp1d(pad), nn.ReLU())
        self.down = nn.Conv1d(cin, cout, 1) if cin != cout else None

    def forward(self, x):
        res = x if self.down is None else self.down(x)
        return torch.relu(self.net(x) + res)


class TCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(TemporalBlock(1, 4, 3, 1), TemporalBlock(4, 4, 3, 2), TemporalBlock(4, 4, 3, 4))
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        return self.head(self.blocks(x)[:, :, -1])


t = torch.arange(80).float()
series = torch.sin(t / 5) + 0.1 * data(80)
win = series.unfold(0, 21, 1)
X, Y = win[:, :20].unsqueeze(1), win[:, 20:]
model = det(TCN(), scale=0.3)
names = sorted(n for n, _ in model.named_parameters())[:4]
opt = torch.optim.Adam(model.parameters(), lr=0.01)
hist = []
for epoch in range(5):
    loss = nn.functional.mse_loss(model(X), Y)
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
report(X_shape=X.shape, names=names, hist=hist, pred=model(X[-3:]).squeeze(1))
