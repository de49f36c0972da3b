import torch
import torch.nn as nn
import torch.nn.functional as F
class Pointer(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.enc = nn.LSTM(2, d, batch_first=True)
        self.dec = nn.LSTMCell(2, d)
        self.W1 = nn.Linear(d, d, bias=False); self.W2 = nn.Linear(d, d, bias=False); self.v = nn.Linear(d, 1, bias=False)
    def forward(self, pts, steps):
        enc, (h, c) = self.enc(pts)
        h, c = h[0], c[0]
        B, N, _ = pts.shape
        mask = torch.zeros(B, N, dtype=torch.bool)
        inp = torch.zeros(B, 2)
        logps, idxs = [], []
        for _ in range(steps):
            h, c = self.dec(inp, (h, c))
            u = self.v(torch.tanh(self.W1(enc) + self.W2(h).unsqueeze(1))).squeeze(-1)
            u = u.masked_fill(mask, float("-inf"))
            lp = F.log_softmax(u, dim=-1)
            idx = lp.argmax(-1)
            logps.append(lp.gather(1, idx.unsqueeze(1)).squeeze(1)); idxs.append(idx)
            mask = mask.scatter(1, idx.unsqueeze(1), True)
            inp = pts[torch.arange(B), idx]
        return torch.stack(logps, 1), torch.stack(idxs, 1)
net = det(Pointer())
pts = data(3, 5, 2).sigmoid()
lp, idx = net(pts, 5)
tour = pts.gather(1, idx.unsqueeze(-1).expand(-1, -1, 2))
length = (tour - tour.roll(-1, dims=1)).norm(dim=-1).sum(1)
(-(lp.sum(1) * (length - length.mean()))).mean().backward()
report(idx=idx, perm_ok=(idx.sort(1).values == torch.arange(5)).all(), length=length, lp=lp[0], g=net.v.weight.grad)
