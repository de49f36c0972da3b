import math
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader


class Windows(Dataset):
    def __init__(self, series, lookback, horizon):
        self.s, self.lb, self.h = series, lookback, horizon

    def __len__(self):
        return len(self.s) - self.lb - self.h + 1

    def __getitem__(self, i):
        return self.s[i:i + self.lb].unsqueeze(-1), self.s[i + self.lb:i + self.lb + self.h]


class Forecaster(nn.Module):
    def __init__(self, hidden=12, horizon=3):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True, num_layers=1)
        self.fc = nn.Linear(hidden, horizon)

    def forward(self, x):
        _, (h, _) = self.lstm(x)
        return self.fc(h[-1])


t = torch.arange(60, dtype=torch.float32)
series = torch.sin(t * 2 * math.pi / 12) + 0.01 * t
mu, sd = series[:45].mean(), series[:45].std()
norm = (series - mu) / sd
train = Windows(norm[:45], 8, 3)
test = Windows(norm[37:], 8, 3)
model = det(Forecaster(), scale=0.3)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loader = DataLoader(train, batch_size=16, shuffle=False)
hist = []
for epoch in range(3):
    tot = 0.0
    for xb, yb in loader:
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        opt.step()
        tot += loss.item() * xb.size(0)
    hist.append(tot / len(train))
model.eval()
with torch.no_grad():
    X = torch.stack([test[i][0] for i in range(len(test))])
    Y = torch.stack([test[i][1] for i in range(len(test))])
    P = model(X) * sd + mu
    mae = (P - (Y * sd + mu)).abs().mean(0)
report(hist=hist, ntrain=len(train), ntest=len(test), mae=mae, p0=P[0])
