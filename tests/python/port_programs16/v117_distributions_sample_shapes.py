import torch
from torch.distributions import Categorical, Normal, OneHotCategorical, RelaxedOneHotCategorical, Gamma, Poisson, Uniform, Exponential

torch.manual_seed(0)
cat = Categorical(probs=torch.tensor([[0.2, 0.8], [0.5, 0.5], [0.9, 0.1]]))
n = Normal(torch.zeros(3), torch.ones(3))
oh = OneHotCategorical(logits=torch.zeros(4))
rel = RelaxedOneHotCategorical(torch.tensor(0.5), logits=torch.zeros(3))
shapes = {
    "cat": cat.sample().shape, "cat_n": cat.sample((5,)).shape, "normal": n.sample((2, 4)).shape, "rsample": n.rsample().shape,
    "oh": oh.sample((3,)).shape, "oh_sum": oh.sample((6,)).sum(-1), "rel": rel.rsample((2,)).shape,
    "gamma": Gamma(torch.tensor([2.0]), torch.tensor([1.0])).sample((3,)).shape, "poisson": Poisson(torch.tensor([3.0, 4.0])).sample().shape,
    "uniform_in": bool(((lambda s: (s >= 2) & (s < 5))(Uniform(2.0, 5.0).sample((100,)))).all()),
    "exp_pos": bool((Exponential(torch.tensor(2.0)).sample((50,)) > 0).all()),
}
report(shapes=shapes, cat_lp=cat.log_prob(torch.tensor([1, 0, 0])), cat_ent=cat.entropy(), batch=list(cat.batch_shape), event=list(oh.event_shape),
       pmean=Poisson(torch.tensor([3.0])).mean, gvar=Gamma(2.0, 3.0).variance, support_check=cat.support.check(torch.tensor(1)))
