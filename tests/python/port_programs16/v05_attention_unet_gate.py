import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionGate(nn.Module):
    def __init__(self, F_g, F_l, F_int):
        super().__init__()
        self.W_g = nn.Sequential(nn.Conv2d(F_g, F_int, 1), nn.BatchNorm2d(F_int))
        self.W_x = nn.Sequential(nn.Conv2d(F_l, F_int, 1), nn.BatchNorm2d(F_int))
        self.psi = nn.Sequential(nn.Conv2d(F_int, 1, 1), nn.BatchNorm2d(1), nn.Sigmoid())

    def forward(self, g, x):
        g1 = F.interpolate(self.W_g(g), size=x.shape[2:], mode="bilinear", align_corners=False)
        psi = self.psi(F.relu(g1 + self.W_x(x)))
        return x * psi, psi


gate = det(AttentionGate(6, 4, 3))
up = det(nn.ConvTranspose2d(6, 6, 2, stride=2), seed=5)
g, skip = data(2, 6, 4, 4), data(2, 4, 8, 8, seed=7)
opt = torch.optim.AdamW(list(gate.parameters()) + list(up.parameters()), lr=3e-3)
for _ in range(3):
    att, psi = gate(g, skip)
    merged = torch.cat([att, up(g)], dim=1)
    loss = F.binary_cross_entropy_with_logits(merged.mean(1), (skip.mean(1) > 0).float())
    opt.zero_grad()
    loss.backward()
    opt.step()
report(loss=loss.item(), psi=psi[0, 0, :2].detach(), shape=list(merged.shape))
