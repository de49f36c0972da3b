import torch
from torch.distributions import Normal, TransformedDistribution, Independent, Uniform
from torch.distributions.transforms import SigmoidTransform, ExpTransform, AffineTransform, ComposeTransform, PowerTransform

base = Normal(torch.zeros(3), torch.ones(3))
logit_normal = TransformedDistribution(base, [SigmoidTransform()])
lognorm = TransformedDistribution(base, [ExpTransform()])
affine = TransformedDistribution(base, ComposeTransform([AffineTransform(1.0, 2.0), ExpTransform()]))
x = torch.tensor([0.2, 0.5, 0.9])
t = SigmoidTransform()
u = torch.tensor([-1.0, 0.0, 2.0])
ind = Independent(Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1)
torch.manual_seed(0)
s = ind.rsample((4,))
report(ln=logit_normal.log_prob(x), lognorm=lognorm.log_prob(x), affine=affine.log_prob(x), ladj=t.log_abs_det_jacobian(u, t(u)), inv=t.inv(t(u)),
       s_shape=s.shape, lp_shape=ind.log_prob(s).shape, pw=PowerTransform(torch.tensor(2.0))(torch.tensor([3.0])), unif_ent=Uniform(0.0, 4.0).entropy().item(),
       sup=str(type(lognorm.support).__name__), mean_exp=lognorm.base_dist.mean)
