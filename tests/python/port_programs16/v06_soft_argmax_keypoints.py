import torch
import torch.nn as nn
import torch.nn.functional as F


def soft_argmax(heat, beta=10.0):
    b, k, h, w = heat.shape
    p = F.softmax(heat.reshape(b, k, -1) * beta, dim=-1).view(b, k, h, w)
    ys = torch.linspace(0, h - 1, h)
    xs = torch.linspace(0, w - 1, w)
    return torch.stack([(p.sum(2) * xs).sum(-1), (p.sum(3) * ys).sum(-1)], dim=-1)


def hard_argmax(heat):
    b, k, h, w = heat.shape
    idx = heat.flatten(2).argmax(-1)
    return torch.stack([idx % w, torch.div(idx, w, rounding_mode="floor")], -1)


head = det(nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 1)))
img = data(2, 3, 8, 10)
target = torch.tensor([[[2.0, 3.0], [7.0, 1.0]], [[4.5, 6.0], [0.0, 0.0]]])
opt = torch.optim.Adam(head.parameters(), lr=0.02)
for _ in range(5):
    coords = soft_argmax(head(img))
    loss = F.smooth_l1_loss(coords, target, beta=0.5)
    opt.zero_grad()
    loss.backward()
    opt.step()
report(loss=loss.item(), coords=coords.detach(), hard=hard_argmax(head(img).detach()))
