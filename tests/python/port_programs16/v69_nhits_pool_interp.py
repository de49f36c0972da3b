import torch
import torch.nn as nn
import torch.nn.functional as F


class NHiTSBlock(nn.Module):
    def __init__(self, L, H, pool, n_coef):
        super().__init__()
        self.pool = nn.MaxPool1d(pool, stride=pool, ceil_mode=True)
        self.mlp = nn.Sequential(nn.Linear((L + pool - 1) // pool, 16), nn.ReLU(), nn.Linear(16, L + n_coef))
        self.L, self.H, self.n = L, H, n_coef

    def forward(self, x):
        h = self.pool(x.unsqueeze(1)).squeeze(1)
        theta = self.mlp(h)
        back, coef = theta[:, :self.L], theta[:, self.L:]
        fore = F.interpolate(coef.unsqueeze(1), size=self.H, mode="linear", align_corners=False).squeeze(1)
        return back, fore


L, H = 12, 6
blocks = nn.ModuleList([NHiTSBlock(L, H, 4, 2), NHiTSBlock(L, H, 2, 3), NHiTSBlock(L, H, 1, 6)])
det(blocks)
t = torch.arange(40.0)
series = torch.sin(t / 3) + 0.1 * t
X = torch.stack([series[i:i + L] for i in range(0, 20, 2)])
Y = torch.stack([series[i + L:i + L + H] for i in range(0, 20, 2)])
opt = torch.optim.Adam(blocks.parameters(), lr=3e-3)
for _ in range(5):
    resid, forecast = X, 0
    for blk in blocks:
        b, f = blk(resid)
        resid = resid - b
        forecast = forecast + f
    loss = F.l1_loss(forecast, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
report(loss=loss.item(), fc=forecast[0].detach(), X=X.shape)
