import torch
import torch.nn as nn
import torch.nn.functional as F


def nt_xent(z1, z2, temperature=0.5):
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    n = z1.size(0)
    sim = z @ z.t() / temperature
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


encoder = det(nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 4)))
x = data(6, 8)
v1 = x + 0.1 * data(6, 8, seed=11)
v2 = x * 0.9 + 0.05
opt = torch.optim.LARS if hasattr(torch.optim, "LARS") else torch.optim.SGD
opt = opt(encoder.parameters(), lr=0.1, momentum=0.9)
hist = []
for _ in range(3):
    loss = nt_xent(encoder(v1), encoder(v2), 0.2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
with torch.no_grad():
    encoder.eval()
    e1, e2 = encoder(v1), encoder(v2)
cos = F.cosine_similarity(e1, e2)
pd = F.pairwise_distance(e1, e2, p=2.0, eps=1e-6)
cd = torch.cdist(e1, e2)
retrieval = (cd.argmin(1) == torch.arange(6)).float().mean()
report(hist=hist, cos=cos, pd=pd, ret=retrieval, cd_diag_ok=torch.allclose(cd.diagonal(), pd, atol=1e-4))
