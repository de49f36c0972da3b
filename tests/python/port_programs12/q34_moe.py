import torch
import torch.nn as nn
import torch.nn.functional as F
class MoE(nn.Module):
    def __init__(self, d=8, n_exp=4, k=2):
        super().__init__()
        self.k = k; self.n_exp = n_exp
        self.gate = nn.Linear(d, n_exp, bias=False)
        self.experts = nn.ModuleList([nn.Sequential(nn.Linear(d, 16), nn.SiLU(), nn.Linear(16, d)) for _ in range(n_exp)])
    def forward(self, x):
        B, T, D = x.shape
        flat = x.view(-1, D)
        logits = self.gate(flat)
        probs = F.softmax(logits, dim=-1)
        topv, topi = torch.topk(probs, self.k, dim=-1)
        topv = topv / topv.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(flat)
        for e in range(self.n_exp):
            mask = topi == e
            rows, slot = torch.where(mask)
            if rows.numel() == 0:
                continue
            y = self.experts[e](flat[rows])
            out.index_add_(0, rows, y * topv[rows, slot].unsqueeze(-1))
        density = F.one_hot(topi[:, 0], self.n_exp).float().mean(0)
        aux = (density * probs.mean(0)).sum() * self.n_exp
        z = torch.logsumexp(logits, dim=-1).pow(2).mean()
        return out.view(B, T, D), aux, z
model = det(MoE(), scale=0.4)
x = data(2, 5, 8)
opt = torch.optim.AdamW(model.parameters(), lr=5e-3, betas=(0.9, 0.95), weight_decay=0.1)
hist = []
for _ in range(4):
    opt.zero_grad()
    y, aux, z = model(x)
    loss = F.mse_loss(y, x.flip(-1)) + 0.01 * aux + 1e-3 * z
    loss.backward(); opt.step(); hist.append([loss.item(), aux.item()])
with torch.no_grad():
    counts = torch.bincount(torch.topk(model.gate(x.view(-1, 8)), 2).indices.flatten(), minlength=4)
report(hist=hist, counts=counts, y=y[0, 0])
