import torch

x = torch.tensor([0.5, 1.0, 2.5, 7.0], requires_grad=True)
y = torch.special.polygamma(2, x).sum() + torch.special.polygamma(3, x).sum() + torch.lgamma(x).sum() + torch.special.multigammaln(x + 2, 3).sum()
y.backward()
report(y=y.item(), g=x.grad, pg2=torch.special.polygamma(2, x.detach()), zeta=torch.special.zeta(torch.tensor([2.0, 4.0, 3.5]), torch.tensor([1.0, 0.5, 3.0])),
       lgamma_neg=torch.lgamma(torch.tensor([-0.5, -1.5, -2.0])), digamma_neg=torch.digamma(torch.tensor([-0.5, 0.0])), gamma=torch.lgamma(torch.tensor([171.0, 172.0])).exp())
