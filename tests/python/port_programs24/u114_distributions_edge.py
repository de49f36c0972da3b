import torch
from torch.distributions import Categorical, Normal, Bernoulli, Beta, kl_divergence

c = Categorical(probs=torch.tensor([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]]))
n = Normal(torch.tensor([0.0, 0.0]), torch.tensor([1.0, 1e-3]))
b = Bernoulli(probs=torch.tensor([0.0, 1.0, 0.3]))
report(ent=c.entropy(), lp=c.log_prob(torch.tensor([2, 0])), kl=kl_divergence(c, Categorical(probs=torch.tensor([1 / 3] * 3))),
       cdf=n.cdf(torch.tensor([10.0, -0.01])), lp_n=n.log_prob(torch.tensor([0.0, 0.01])), icdf=n.icdf(torch.tensor([0.5, 0.975])),
       b_lp=b.log_prob(torch.tensor([0.0, 1.0, 1.0])), b_ent=b.entropy(), beta_lp=Beta(torch.tensor(0.5), torch.tensor(0.5)).log_prob(torch.tensor([0.01, 0.5])),
       logits=c.logits, mean=b.mean, var=b.variance, n_mode=n.mode, kl_nn=kl_divergence(n, Normal(torch.tensor([1.0, 0.0]), torch.tensor([2.0, 1.0]))))
