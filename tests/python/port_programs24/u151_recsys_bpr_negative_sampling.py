import torch
import torch.nn as nn
import torch.nn.functional as F

n_users, n_items, d = 6, 10, 4
U = det(nn.Embedding(n_users, d), seed=1)
V = det(nn.Embedding(n_items, d), seed=2)
users = ints(n_users, 16, seed=3)
pos = ints(n_items, 16, seed=4)
neg = (pos + 1 + ints(n_items - 1, 16, seed=5)) % n_items
opt = torch.optim.SGD(list(U.parameters()) + list(V.parameters()), lr=0.1, weight_decay=1e-4)
hist = []
for _ in range(5):
    u = U(users)
    x_uij = (u * V(pos)).sum(-1) - (u * V(neg)).sum(-1)
    loss = -F.logsigmoid(x_uij).mean()
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
with torch.no_grad():
    scores = U.weight @ V.weight.T
    seen = torch.zeros(n_users, n_items, dtype=torch.bool)
    seen[users, pos] = True
    scores[seen] = -float("inf")
    top3 = scores.topk(3, dim=1).indices
auc = (x_uij > 0).float().mean()
report(neg_ne_pos=bool((neg != pos).all()), hist=hist, top3=top3, auc=auc.item(), seen=seen.sum(1))
