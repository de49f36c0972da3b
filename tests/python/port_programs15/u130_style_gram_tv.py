import torch
import torch.nn as nn
import torch.nn.functional as F


def gram(f):
    b, c, h, w = f.size()
    feats = f.view(b, c, h * w)
    return torch.bmm(feats, feats.transpose(1, 2)) / (c * h * w)


def tv_loss(img):
    return (img[:, :, 1:, :] - img[:, :, :-1, :]).abs().mean() + (img[:, :, :, 1:] - img[:, :, :, :-1]).abs().mean()


feat = det(nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 4, 3, padding=1)), scale=0.3)
for p in feat.parameters():
    p.requires_grad_(False)
content = data(1, 3, 8, 8)
style = data(1, 3, 8, 8, seed=5)
target_gram = gram(feat(style)).detach()
target_content = feat(content).detach()
img = content.clone().requires_grad_(True)
opt = torch.optim.Adam([img], lr=0.05)
hist = []
for it in range(5):
    opt.zero_grad()
    f = feat(img)
    loss = F.mse_loss(f, target_content) + 10 * F.mse_loss(gram(f), target_gram) + 0.1 * tv_loss(img)
    loss.backward()
    opt.step()
    with torch.no_grad():
        img.clamp_(-2.5, 2.5)
    hist.append(loss.item())
report(hist=hist, gram=target_gram[0, 0], img=img[0, 0, 0, :4], frozen=all(p.grad is None for p in feat.parameters()))
