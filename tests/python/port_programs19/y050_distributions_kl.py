import torch
from torch.distributions import Normal, Categorical, Bernoulli, kl_divergence, MultivariateNormal, Beta, Gamma
kl_n = kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0))
kl_c = kl_divergence(Categorical(logits=torch.tensor([0.0, 1.0, 2.0])), Categorical(probs=torch.tensor([1 / 3, 1 / 3, 1 / 3])))
kl_b = kl_divergence(Bernoulli(0.3), Bernoulli(0.6))
mvn = MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
mvn2 = MultivariateNormal(torch.ones(2), scale_tril=torch.eye(2))
report(kl_n=kl_n, kl_c=kl_c, kl_b=kl_b, kl_mvn=kl_divergence(mvn, mvn2), mvn_lp=mvn.log_prob(torch.tensor([0.5, -0.5])), mvn_ent=mvn.entropy(),
       kl_beta=kl_divergence(Beta(2.0, 3.0), Beta(1.0, 1.0)), kl_gamma=kl_divergence(Gamma(2.0, 1.0), Gamma(3.0, 2.0)))
