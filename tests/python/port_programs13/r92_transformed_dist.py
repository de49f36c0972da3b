import torch
from torch.distributions import Normal, TransformedDistribution, Uniform
from torch.distributions.transforms import AffineTransform, SigmoidTransform, ExpTransform, TanhTransform, ComposeTransform
base = Normal(torch.zeros(3), torch.ones(3))
logistic = TransformedDistribution(Uniform(torch.zeros(3), torch.ones(3)), [SigmoidTransform().inv, AffineTransform(loc=1.0, scale=2.0)])
lognorm = TransformedDistribution(base, [ExpTransform()])
squashed = TransformedDistribution(base, [TanhTransform(cache_size=1), AffineTransform(0.0, 2.0)])
x = torch.tensor([0.5, 1.0, 3.0])
comp = ComposeTransform([AffineTransform(1.0, 3.0), ExpTransform()])
y = comp(torch.tensor([0.0, 0.5]))
report(lp_logistic=logistic.log_prob(x), lp_lognorm=lognorm.log_prob(x), lp_sq=squashed.log_prob(torch.tensor([-1.5, 0.0, 1.9])), y=y, inv=comp.inv(y),
       ladj=comp.log_abs_det_jacobian(torch.tensor([0.0, 0.5]), y), shape=list(squashed.sample((2,)).shape), mean=lognorm.base_dist.mean)
