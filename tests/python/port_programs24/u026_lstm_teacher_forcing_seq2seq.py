import torch
import torch.nn as nn


class Seq2Seq(nn.Module):
    def __init__(self, h=8):
        super().__init__()
        self.enc = nn.LSTM(1, h, batch_first=True)
        self.dec = nn.LSTMCell(1, h)
        self.out = nn.Linear(h, 1)

    def forward(self, src, tgt=None, horizon=5, teacher_forcing=True):
        _, (h, c) = self.enc(src)
        h, c = h[0], c[0]
        inp = src[:, -1]
        outs = []
        for t in range(horizon):
            h, c = self.dec(inp, (h, c))
            y = self.out(h)
            outs.append(y)
            inp = tgt[:, t] if (teacher_forcing and tgt is not None) else y
        return torch.stack(outs, 1)


t = torch.arange(60).float()
s = (torch.sin(t / 4) + 0.05 * data(60)).unsqueeze(-1)
windows = s.unfold(0, 15, 3).permute(0, 2, 1)
src, tgt = windows[:, :10], windows[:, 10:]
model = det(Seq2Seq())
opt = torch.optim.Adam(model.parameters(), lr=0.01)
hist = []
for epoch in range(6):
    tf = epoch < 3
    pred = model(src, tgt, teacher_forcing=tf)
    loss = nn.functional.l1_loss(pred, tgt)
    opt.zero_grad(); loss.backward(); opt.step()
    hist.append(loss.item())
with torch.no_grad():
    free = model(src, teacher_forcing=False)
report(shapes=[src.shape, tgt.shape], hist=hist, free=free[0].squeeze(-1), smape=(2 * (free - tgt).abs() / (free.abs() + tgt.abs())).mean().item())
