import torch
import torch.nn as nn


class Forecaster(nn.Module):
    def __init__(self, n_feat, hidden, horizon):
        super().__init__()
        self.gru = nn.GRU(n_feat, hidden, num_layers=2, batch_first=True, dropout=0.0)
        self.head = nn.Linear(hidden, horizon)

    def forward(self, x):
        out, h = self.gru(x)
        return self.head(out[:, -1]), h


t = torch.arange(100).float()
feat = torch.stack([torch.sin(t / 6), torch.cos(t / 6), (t % 7) / 7], -1)
target = feat[:, 0] * 2 + 0.1 * data(100)
X = feat.unfold(0, 12, 4).permute(0, 2, 1)[:-1]
Y = target[12:].unfold(0, 3, 4)[:X.shape[0]]
model = det(Forecaster(3, 6, 3))
opt = torch.optim.Adam(model.parameters(), lr=0.02, betas=(0.9, 0.99))
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=0)
hist, lrs = [], []
for epoch in range(6):
    pred, h = model(X)
    loss = nn.functional.huber_loss(pred, Y, delta=0.5)
    opt.zero_grad(); loss.backward(); opt.step()
    sched.step(loss.item())
    hist.append(loss.item()); lrs.append(opt.param_groups[0]["lr"])
report(X_shape=X.shape, Y_shape=Y.shape, hist=hist, lrs=lrs, h_shape=h.shape)
