import torch
import torch.distributions as D

b = D.Binomial(total_count=5, probs=torch.tensor([0.3, 0.6]))
g = D.Geometric(probs=torch.tensor([0.25]))
u = D.Uniform(torch.tensor([0.0, -1.0]), torch.tensor([2.0, 1.0]))
e = D.Exponential(torch.tensor([1.5]))
ln = D.LogNormal(0.0, 0.5)
st = D.StudentT(3.0)
c = D.Cauchy(0.0, 1.0)
report(b=b.log_prob(torch.tensor([2.0, 4.0])), bm=b.mean, bv=b.variance, g=g.log_prob(torch.tensor([3.0])), gm=g.mean, u=u.log_prob(torch.tensor([1.0, 0.0])),
       ucdf=u.cdf(torch.tensor([0.5, 0.5])), uicdf=u.icdf(torch.tensor([0.25, 0.75])), ue=u.entropy(), e=e.log_prob(torch.tensor([0.7])), ecdf=e.cdf(torch.tensor([0.7])),
       ln=ln.log_prob(torch.tensor([1.3])), lnm=ln.mean, st=st.log_prob(torch.tensor([0.5])), c=c.log_prob(torch.tensor([2.0])), cicdf=c.icdf(torch.tensor([0.9])))
