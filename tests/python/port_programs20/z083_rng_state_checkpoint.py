import torch

torch.manual_seed(3)
state = torch.get_rng_state()
a = torch.rand(4)
torch.set_rng_state(state)
b = torch.rand(4)
g = torch.Generator().manual_seed(7)
gs = g.get_state()
c = torch.randn(3, generator=g)
g.set_state(gs)
d = torch.randn(3, generator=g)
torch.save({"rng": torch.get_rng_state()}, "rng.pt")
e = torch.rand(2)
torch.set_rng_state(torch.load("rng.pt")["rng"])
f = torch.rand(2)
report(same_ab=torch.equal(a, b), same_cd=torch.equal(c, d), same_ef=torch.equal(e, f), dtype=state.dtype, init=g.initial_seed(),
       seed=torch.initial_seed())
