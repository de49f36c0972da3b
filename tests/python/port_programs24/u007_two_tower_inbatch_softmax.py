import torch
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, n, d):
        super().__init__()
        self.emb = nn.Embedding(n, 8)
        self.proj = nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, d))

    def forward(self, ids):
        return F.normalize(self.proj(self.emb(ids)), dim=-1)


q_tower = det(Tower(7, 4), seed=1)
c_tower = det(Tower(9, 4), seed=2)
opt = torch.optim.AdamW(list(q_tower.parameters()) + list(c_tower.parameters()), lr=0.01, weight_decay=0.01)
q_ids = ints(7, 6, seed=3)
c_ids = ints(9, 6, seed=4)
temperature = 0.1
hist = []
for step in range(4):
    q, c = q_tower(q_ids), c_tower(c_ids)
    logits = q @ c.t() / temperature
    # remove accidental hits: same candidate id elsewhere in the batch
    dup = (c_ids.unsqueeze(0) == c_ids.unsqueeze(1)) & ~torch.eye(6, dtype=torch.bool)
    logits = logits.masked_fill(dup, float("-inf"))
    loss = F.cross_entropy(logits, torch.arange(6))
    opt.zero_grad(); loss.backward(); opt.step()
    hist.append(loss.item())
with torch.no_grad():
    scores = q_tower(torch.arange(7)) @ c_tower(torch.arange(9)).T
    rec = scores.argsort(dim=1, descending=True)[:, :3]
report(hist=hist, dup=dup, rec=rec, norms=q_tower(q_ids).norm(dim=1))
