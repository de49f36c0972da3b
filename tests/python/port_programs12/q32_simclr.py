import torch
import torch.nn as nn
import torch.nn.functional as F
def nt_xent(z1, z2, temperature=0.5):
    N = z1.size(0)
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = torch.mm(z, z.t()) / temperature
    sim.fill_diagonal_(-float("inf"))
    targets = torch.cat([torch.arange(N, 2 * N), torch.arange(0, N)])
    return F.cross_entropy(sim, targets)
def info_nce(q, k, queue, T=0.07):
    l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
    l_neg = torch.einsum("nc,ck->nk", [q, queue.clone().detach()])
    logits = torch.cat([l_pos, l_neg], dim=1) / T
    labels = torch.zeros(logits.shape[0], dtype=torch.long)
    return F.cross_entropy(logits, labels)
enc = det(nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 6)), scale=0.4)
key_enc = det(nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 6)), scale=0.4)
for p in key_enc.parameters(): p.requires_grad = False
x = data(6, 8)
aug1 = x + 0.1 * data(6, 8, seed=11); aug2 = x * 0.9 + 0.1 * data(6, 8, seed=12)
queue = F.normalize(data(6, 10, seed=13), dim=0)
opt = torch.optim.SGD(enc.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
hist = []
for step in range(4):
    opt.zero_grad()
    z1, z2 = enc(aug1), enc(aug2)
    l1 = nt_xent(z1, z2)
    q = F.normalize(z1, dim=1)
    with torch.no_grad():
        for pk, pq in zip(key_enc.parameters(), enc.parameters()):
            pk.data = pk.data * 0.99 + pq.data * 0.01
        k = F.normalize(key_enc(aug2), dim=1)
    l2 = info_nce(q, k, queue)
    (l1 + l2).backward(); opt.step()
    queue = torch.cat([queue[:, 6:], k.T], dim=1)
    hist.append([l1.item(), l2.item()])
report(hist=hist, queue=queue.shape, kw=key_enc[0].weight[0], rv=key_enc[1].running_var)
