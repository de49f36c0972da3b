import torch
import torch.distributions as D

mix = D.Categorical(logits=torch.tensor([0.1, 0.5, -0.3]))
comp = D.Independent(D.Normal(torch.tensor([[0.0, 1.0], [2.0, -1.0], [-2.0, 0.5]]), torch.tensor([[1.0, 0.5], [0.7, 1.2], [1.5, 0.3]])), 1)
gmm = D.MixtureSameFamily(mix, comp)
x = data(4, 2, seed=1)
lp = gmm.log_prob(x)
bern = D.Bernoulli(logits=torch.tensor([0.3, -1.2]))
beta = D.Beta(torch.tensor([2.0, 0.5]), torch.tensor([3.0, 0.5]))
dirich = D.Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
pois = D.Poisson(torch.tensor([2.0, 4.5]))
lapl = D.Laplace(0.0, 2.0)
kl = D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(1.0, 2.0))
kl2 = D.kl_divergence(D.Categorical(probs=torch.tensor([0.2, 0.8])), D.Categorical(probs=torch.tensor([0.5, 0.5])))
report(lp=lp, mean=gmm.mean, var=gmm.variance, b=bern.log_prob(torch.tensor([1.0, 0.0])), be=bern.entropy(),
       beta=beta.log_prob(torch.tensor([0.3, 0.9])), bm=beta.mean, dir=dirich.log_prob(torch.tensor([0.2, 0.3, 0.5])), de=dirich.entropy(),
       pois=pois.log_prob(torch.tensor([1.0, 5.0])), lap=lapl.cdf(torch.tensor([-1.0, 3.0])), kl=kl, kl2=kl2, ent=lapl.entropy())
