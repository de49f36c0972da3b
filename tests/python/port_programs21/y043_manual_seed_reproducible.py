import torch

torch.manual_seed(42)
a = torch.rand(5)
b = torch.randn(3, 3)
c = torch.randint(0, 10, (6,))
p = torch.randperm(8)
torch.manual_seed(42)
a2 = torch.rand(5)
b2 = torch.randn(3, 3)
c2 = torch.randint(0, 10, (6,))
p2 = torch.randperm(8)
g = torch.Generator().manual_seed(7)
x1 = torch.randn(4, generator=g)
g.manual_seed(7)
x2 = torch.randn(4, generator=g)
state = torch.get_rng_state()
y1 = torch.rand(3)
torch.set_rng_state(state)
y2 = torch.rand(3)
report(same=[torch.equal(a, a2), torch.equal(b, b2), torch.equal(c, c2), torch.equal(p, p2), torch.equal(x1, x2),
             torch.equal(y1, y2)], inrange=[bool(((a >= 0) & (a < 1)).all()), bool(((c >= 0) & (c < 10)).all())],
       perm=sorted(p.tolist()), dtypes=[a.dtype, b.dtype, c.dtype, p.dtype], initial=torch.initial_seed())
