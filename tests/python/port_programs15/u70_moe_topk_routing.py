import torch
import torch.nn as nn
import torch.nn.functional as F


class MoE(nn.Module):
    def __init__(self, d=6, n_exp=4, k=2):
        super().__init__()
        self.gate = nn.Linear(d, n_exp, bias=False)
        self.experts = nn.ModuleList([nn.Sequential(nn.Linear(d, 8), nn.ReLU(), nn.Linear(8, d)) for _ in range(n_exp)])
        self.k = k

    def forward(self, x):
        B, T, D = x.shape
        x = x.view(-1, D)
        logits = self.gate(x)
        weights, sel = torch.topk(logits, self.k, dim=-1)
        weights = F.softmax(weights, dim=-1, dtype=torch.float).to(x.dtype)
        out = torch.zeros_like(x)
        mask = F.one_hot(sel, num_classes=len(self.experts)).permute(2, 1, 0)
        for e, expert in enumerate(self.experts):
            idx, top = torch.where(mask[e])
            if top.numel() == 0:
                continue
            out.index_add_(0, top, expert(x[top]) * weights[top, idx, None])
        probs = logits.softmax(-1)
        frac = mask.sum(1).float().sum(1) / x.size(0)
        aux = (frac * probs.mean(0)).sum() * len(self.experts)
        return out.view(B, T, D), aux, sel


moe = det(MoE(), scale=0.4)
x = data(2, 3, 6)
y, aux, sel = moe(x)
(y.pow(2).mean() + 0.01 * aux).backward()
counts = torch.bincount(sel.flatten(), minlength=4)
report(y=y[0, 0], aux=aux, sel=sel, counts=counts, g=moe.gate.weight.grad.abs().sum())
