import torch
from torch.distributions import MixtureSameFamily, Categorical, Normal, Independent

logits = torch.tensor([0.2, -0.5, 1.0], requires_grad=True)
locs = torch.tensor([-2.0, 0.0, 3.0], requires_grad=True)
scales = torch.tensor([0.5, 1.0, 0.8])
gmm = MixtureSameFamily(Categorical(logits=logits), Normal(locs, scales))
x = torch.tensor([-2.1, 0.3, 2.5, 10.0])
lp = gmm.log_prob(x)
(-lp.mean()).backward()
manual = torch.logsumexp(torch.log_softmax(logits, 0).detach() + Normal(locs.detach(), scales).log_prob(x.unsqueeze(-1)), -1)
mv = MixtureSameFamily(Categorical(probs=torch.tensor([0.3, 0.7])), Independent(Normal(torch.tensor([[0.0, 0.0], [1.0, 1.0]]), torch.ones(2, 2)), 1))
report(lp=lp, manual=manual, lg=logits.grad, locg=locs.grad, mean=gmm.mean.item(), var=gmm.variance.item(), mv=mv.log_prob(torch.tensor([[0.5, 0.5]])),
       cdf=gmm.cdf(torch.tensor([0.0])), ev=mv.event_shape)
