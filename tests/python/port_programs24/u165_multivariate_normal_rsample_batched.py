import torch
from torch.distributions import MultivariateNormal

loc = torch.tensor([[0.0, 1.0], [2.0, -1.0]], requires_grad=True)
L = torch.tensor([[[1.0, 0.0], [0.5, 0.8]], [[0.3, 0.0], [-0.2, 1.2]]])
mvn = MultivariateNormal(loc, scale_tril=L)
eps = data(5, 2, 2)
z = loc + (L @ eps.unsqueeze(-1)).squeeze(-1)
lp = mvn.log_prob(z)
lp.sum().backward()
report(z=z[0], lp=lp[:2], grad=loc.grad, cov=mvn.covariance_matrix[1], prec=mvn.precision_matrix[0], ent=mvn.entropy(), batch=mvn.batch_shape, event=mvn.event_shape)
