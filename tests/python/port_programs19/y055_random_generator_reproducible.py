import torch
g = torch.Generator().manual_seed(123)
a = torch.rand(5, generator=g)
g2 = torch.Generator().manual_seed(123)
b = torch.rand(5, generator=g2)
torch.manual_seed(5)
c = torch.randn(3)
s = torch.get_rng_state()
d = torch.randn(3)
torch.set_rng_state(s)
e = torch.randn(3)
ri = torch.randint(3, 7, (100,), generator=torch.Generator().manual_seed(1))
report(same=torch.equal(a, b), restore=torch.equal(d, e), inrange=bool(((a >= 0) & (a < 1)).all()), ri_range=[ri.min().item() >= 3, ri.max().item() <= 6], ri_dt=ri.dtype,
       perm=torch.randperm(8, generator=torch.Generator().manual_seed(42)), seed=g.initial_seed(), rl=torch.randint_like(torch.zeros(2, 2), 5).shape,
       rnd=torch.rand(2, 3, dtype=torch.float64).dtype, multi=torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 4, replacement=True))
