import torch
import torch.nn as nn
import torch.nn.functional as F

E, d = 4, 3
router = det(nn.Linear(d, E, bias=False), seed=1)
experts = nn.ModuleList([nn.Linear(d, d) for _ in range(E)])
det(experts, seed=2)
x = data(5, d, seed=3)
logits = router(x)
probs = F.softmax(logits, dim=-1)
topv, topi = probs.topk(2, dim=-1)
topv = topv / topv.sum(-1, keepdim=True)
out = torch.zeros_like(x)
for e in range(E):
    rows, slot = (topi == e).nonzero(as_tuple=True)
    if rows.numel():
        out.index_add_(0, rows, experts[e](x[rows]) * topv[rows, slot, None])
load = F.one_hot(topi[:, 0], E).float().mean(0)
aux = E * (load * probs.mean(0)).sum()
report(topi=topi, out=out, aux=aux, load=load)
