import torch
import torch.nn as nn
import torch.nn.functional as F

model = det(nn.Sequential(nn.Flatten(), nn.Linear(16, 12), nn.ReLU(), nn.Linear(12, 3)))
model.eval()
x = (data(4, 1, 4, 4) * 0.3 + 0.5).clamp(0, 1)
y = torch.tensor([0, 1, 2, 1])


def fgsm(x, eps):
    x = x.clone().requires_grad_(True)
    loss = F.cross_entropy(model(x), y)
    grad = torch.autograd.grad(loss, x)[0]
    return (x + eps * grad.sign()).clamp(0, 1).detach()


def pgd(x, eps=0.1, alpha=0.03, steps=4):
    adv = x.clone()
    for _ in range(steps):
        adv.requires_grad_(True)
        loss = F.cross_entropy(model(adv), y)
        loss.backward()
        with torch.no_grad():
            adv = adv + alpha * adv.grad.sign()
            adv = torch.min(torch.max(adv, x - eps), x + eps).clamp_(0, 1)
    return adv.detach()


a1 = fgsm(x, 0.05)
a2 = pgd(x)
with torch.no_grad():
    l0, l1, l2 = (F.cross_entropy(model(t), y).item() for t in (x, a1, a2))
report(l=[l0, l1, l2], linf=(a2 - x).abs().max().item(), a1=a1[0, 0, 0], pred=model(a2).argmax(1))
