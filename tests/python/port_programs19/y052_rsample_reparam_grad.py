import torch
from torch.distributions import Normal
mu = torch.tensor([0.5, -1.0], requires_grad=True)
sigma = torch.tensor([1.0, 2.0], requires_grad=True)
torch.manual_seed(3)
d = Normal(mu, sigma)
z = d.rsample((1000,))
eps = (z.detach() - mu.detach()) / sigma.detach()
loss = z.sum()
loss.backward()
report(gmu=mu.grad, gsig_ok=torch.allclose(sigma.grad, eps.sum(0), atol=1e-3), lpg=torch.autograd.grad(Normal(mu, sigma).log_prob(torch.tensor([0.0, 0.0])).sum(), mu)[0])
