import torch
import torch.nn as nn
import torch.nn.functional as F

enc = det(nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 4)))
n_way, k_shot, n_query = 3, 2, 2
x = data(n_way, k_shot + n_query, 5) + torch.arange(3.0).view(3, 1, 1)
opt = torch.optim.Adam(enc.parameters(), lr=0.01)
hist = []
for ep in range(4):
    support, query = x[:, :k_shot], x[:, k_shot:]
    protos = enc(support.reshape(-1, 5)).view(n_way, k_shot, -1).mean(1)
    q = enc(query.reshape(-1, 5))
    dists = torch.cdist(q, protos) ** 2
    log_p = F.log_softmax(-dists, dim=1)
    target = torch.arange(n_way).repeat_interleave(n_query)
    loss = F.nll_loss(log_p, target)
    opt.zero_grad(); loss.backward(); opt.step()
    hist.append([loss.item(), (log_p.argmax(1) == target).float().mean().item()])
report(hist=hist, target=target, protos_shape=protos.shape)
