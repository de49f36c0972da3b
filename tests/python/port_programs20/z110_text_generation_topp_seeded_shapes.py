import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
m = det(nn.Sequential(nn.Embedding(12, 6), nn.Linear(6, 12)), scale=0.5).eval()
ids = torch.tensor([[3]])
with torch.no_grad():
    for _ in range(5):
        logits = m(ids)[:, -1, :]
        probs = F.softmax(logits / 0.9, dim=-1)
        sp, si = torch.sort(probs, descending=True)
        cum = torch.cumsum(sp, dim=-1)
        sp[(cum - sp) > 0.8] = 0.0
        sp.div_(sp.sum(dim=-1, keepdim=True))
        nxt = torch.gather(si, -1, torch.multinomial(sp, num_samples=1))
        ids = torch.cat([ids, nxt], dim=1)
report(shape=ids.shape, in_range=bool(((ids >= 0) & (ids < 12)).all()), dtype=ids.dtype, kept=(sp > 0).sum().item() >= 1,
       norm=sp.sum().item())
