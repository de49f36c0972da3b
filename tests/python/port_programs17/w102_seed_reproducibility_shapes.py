import torch

torch.manual_seed(123)
a = torch.rand(3, 4)
b = torch.randn(2, 2, dtype=torch.float64)
c = torch.randint(5, 10, (6,))
d = torch.bernoulli(torch.full((100,), 0.5))
torch.manual_seed(123)
a2 = torch.rand(3, 4)
state = torch.get_rng_state()
e = torch.randn(5)
torch.set_rng_state(state)
e2 = torch.randn(5)
g = torch.Generator()
g.manual_seed(5)
s1 = torch.normal(0.0, 1.0, size=(3,), generator=g)
g.manual_seed(5)
s2 = torch.normal(0.0, 1.0, size=(3,), generator=g)
m = torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 4, replacement=True)
report(same=torch.equal(a, a2), same2=torch.equal(e, e2), same3=torch.equal(s1, s2), ad=a.dtype, bd=b.dtype, cd=c.dtype,
       crange=bool((c >= 5).all() and (c < 10).all()), dvals=sorted(set(d.tolist())), m=m, seed=torch.initial_seed(),
       rl=torch.rand_like(a).shape, ri=torch.randint_like(c, 3).dtype)
