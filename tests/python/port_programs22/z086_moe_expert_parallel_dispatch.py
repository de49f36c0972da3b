import torch
import torch.nn as nn
import torch.nn.functional as F

E, d, N = 3, 4, 8
experts = det(nn.ModuleList([nn.Linear(d, d) for _ in range(E)]), seed=117)
router = det(nn.Linear(d, E), seed=118)
x = data(N, d, seed=119).requires_grad_()
logits = router(x)
probs = logits.softmax(-1)
gate, idx = probs.max(-1)
order = torch.argsort(idx, stable=True)
counts = torch.bincount(idx, minlength=E)
sorted_x = x[order]
chunks = torch.split(sorted_x, counts.tolist())
outs = [experts[e](c) for e, c in enumerate(chunks)]
y_sorted = torch.cat(outs)
y = torch.empty_like(y_sorted)
y[order] = y_sorted
y = y * gate.unsqueeze(-1)
aux = E * (F.one_hot(idx, E).float().mean(0) * probs.mean(0)).sum()
(y.sum() + aux).backward()
inv = torch.empty_like(order)
inv[order] = torch.arange(N)
report(idx=idx, order=order, counts=counts, y=y, aux=aux, xg=x.grad[:3], rg=router.weight.grad, inv=inv,
       sizes=[c.shape[0] for c in chunks])
