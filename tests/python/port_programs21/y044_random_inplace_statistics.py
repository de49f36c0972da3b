import torch

torch.manual_seed(0)
n = torch.empty(20000).normal_(2.0, 0.5)
u = torch.empty(20000).uniform_(-1, 3)
b = torch.bernoulli(torch.full((20000,), 0.3))
m = torch.multinomial(torch.tensor([0.1, 0.6, 0.3]), 20000, replacement=True)
m2 = torch.multinomial(torch.tensor([1.0, 1.0, 1.0, 0.0]), 3)
e = torch.empty(20000).exponential_(2.0)
ri = torch.randint(3, 7, (20000,))
nrm = torch.normal(torch.zeros(20000), torch.ones(20000) * 3)
g = torch.Generator().manual_seed(1)
rn = torch.randn(20000, generator=g)
report(nm=abs(n.mean().item() - 2.0) < 0.02, ns=abs(n.std().item() - 0.5) < 0.02,
       u=[u.min().item() >= -1, u.max().item() < 3, abs(u.mean().item() - 1.0) < 0.05],
       b=abs(b.mean().item() - 0.3) < 0.02, bvals=sorted(b.unique().tolist()),
       m=[abs((m == 1).float().mean().item() - 0.6) < 0.02, m.dtype], m2=sorted(m2.tolist()),
       e=abs(e.mean().item() - 0.5) < 0.02, ri=[ri.min().item(), ri.max().item()], nrm=abs(nrm.std().item() - 3) < 0.1,
       rn=abs(rn.mean().item()) < 0.03, bd=torch.bernoulli(torch.tensor([0.0, 1.0, 1.0])),
       rl=torch.randn_like(torch.zeros(2, 3, dtype=torch.float64)).dtype, ril=torch.randint_like(torch.zeros(3), 5).dtype)
