import torch

g = torch.Generator().manual_seed(3)
p = torch.full((50000,), 0.2)
m1 = torch.bernoulli(p, generator=g)
g.manual_seed(3)
m2 = torch.bernoulli(p, generator=g)
r1 = torch.rand(4, generator=torch.Generator().manual_seed(9))
r2 = torch.rand(4, generator=torch.Generator().manual_seed(9))
ri = torch.randint(0, 5, (50000,), generator=g)
mult = torch.multinomial(torch.tensor([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5]]), 1, generator=g)
ne = torch.empty(50000).bernoulli_(0.7)
report(same=torch.equal(m1, m2), frac=abs(m1.mean().item() - 0.2) < 0.01, r=torch.equal(r1, r2), rng=[ri.min().item(), ri.max().item()],
       counts_ok=bool((torch.bincount(ri).float() / 50000 - 0.2).abs().max() < 0.01), m0=mult[0].item(), m1_in=mult[1].item() in (0, 2),
       ne=abs(ne.mean().item() - 0.7) < 0.01, gs=g.initial_seed())
