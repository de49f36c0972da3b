import numpy as np
import torch
import torch.nn as nn

series = torch.from_numpy(np.sin(np.linspace(0, 6, 40)).astype(np.float32)) + 0.1 * data(40, seed=8)
mu, sd = series[:30].mean(), series[:30].std()
z = (series - mu) / sd
windows = z.unfold(0, 6, 1)
X, Y = windows[:, :5].unsqueeze(-1), windows[:, 5]
train_X, train_Y, test_X, test_Y = X[:25], Y[:25], X[25:], Y[25:]


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 8, batch_first=True)
        self.fc = nn.Linear(8, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1]).squeeze(-1)


model = det(Forecaster(), scale=0.3)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0, factor=0.5)
hist = []
for epoch in range(4):
    model.train()
    perm = torch.arange(25).flip(0)
    for b in perm.split(8):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(train_X[b]), train_Y[b])
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(test_X), test_Y)
    sched.step(val)
    hist.append([round(val.item(), 6), opt.param_groups[0]["lr"]])
with torch.no_grad():
    pred = model(test_X) * sd + mu
    true = test_Y * sd + mu
    mape = ((pred - true).abs() / true.abs().clamp(min=1e-3)).mean() * 100
report(windows=windows.shape, hist=hist, pred=pred, mape=mape)
