import torch
import torch.distributions as D

torch.manual_seed(0)
mu = torch.zeros(3, requires_grad=True)
sig = torch.ones(3, requires_grad=True)
n = D.Normal(mu, sig)
s = n.rsample((5,))
s.pow(2).mean().backward()
mvn = D.MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
lp = mvn.log_prob(torch.tensor([[0.3, -0.2], [1.0, 1.0]]))
tanh = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.TanhTransform()])
c = D.Categorical(probs=torch.tensor([[0.1, 0.9], [0.5, 0.5]]))
oc = D.OneHotCategorical(logits=torch.zeros(4))
report(sshape=list(s.shape), gmu_finite=bool(torch.isfinite(mu.grad).all()), lp=lp, st=mvn.scale_tril, ent=mvn.entropy(),
       tlp=tanh.log_prob(torch.tensor([0.5, -0.9])), cs=list(c.sample((3,)).shape), bs=c.batch_shape, es=oc.event_shape,
       ns=list(D.Normal(torch.zeros(2, 1), 1.0).sample((4,)).shape), ce=c.entropy(), gs=list(D.Gamma(2.0, 1.0).sample((2, 3)).shape))
