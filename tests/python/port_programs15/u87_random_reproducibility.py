import random
import numpy as np
import torch


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


seed_everything(42)
a = torch.randn(5)
b = torch.rand(3)
seed_everything(42)
a2 = torch.randn(5)
b2 = torch.rand(3)
g = torch.Generator().manual_seed(7)
c = torch.randint(0, 10, (4,), generator=g)
g2 = torch.Generator()
g2.manual_seed(7)
c2 = torch.randint(0, 10, (4,), generator=g2)
state = torch.get_rng_state()
d = torch.rand(2)
torch.set_rng_state(state)
d2 = torch.rand(2)
gs = g.get_state()
e = torch.randn(3, generator=g)
g.set_state(gs)
e2 = torch.randn(3, generator=g)
p = torch.randperm(10)
n = torch.normal(torch.zeros(1000), torch.ones(1000))
u = torch.empty(1000).uniform_(-1, 1)
bern = torch.bernoulli(torch.full((1000,), 0.3))
mn = torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 4, replacement=True)
ri = torch.randint_like(torch.zeros(3), low=5, high=6)
rn = torch.randn_like(torch.zeros(2, 2, dtype=torch.float64))
report(same_a=torch.equal(a, a2), same_b=torch.equal(b, b2), same_c=torch.equal(c, c2), same_d=torch.equal(d, d2),
       same_e=torch.equal(e, e2), perm_sorted=p.sort().values, n_stats=[abs(n.mean().item()) < 0.15, abs(n.std().item() - 1) < 0.15],
       u_range=[u.min().item() >= -1, u.max().item() < 1], bern=abs(bern.mean().item() - 0.3) < 0.06, mn=mn, ri=ri,
       rn_dtype=str(rn.dtype), initial_seed=torch.initial_seed(), g_seed=g.initial_seed(), state_dtype=str(state.dtype))
