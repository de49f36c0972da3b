import torch
from torch import distributions as D
base = D.Normal(torch.zeros(3), torch.ones(3))
ind = D.Independent(base, 1)
td = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.ExpTransform()])
sig = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.transforms.SigmoidTransform(), D.transforms.AffineTransform(1.0, 2.0)])
rc = D.RelaxedOneHotCategorical(torch.tensor(0.5), probs=torch.tensor([0.2, 0.8]))
report(ilp=ind.log_prob(torch.tensor([0.1, 0.2, 0.3])), ibs=ind.batch_shape, ies=ind.event_shape, tdlp=td.log_prob(torch.tensor(2.0)),
       siglp=sig.log_prob(torch.tensor(2.0)), ient=ind.entropy(), rcshape=rc.rsample().shape,
       mix=D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])), D.Normal(torch.tensor([-1.0, 1.0]), torch.tensor([0.5, 0.5]))).log_prob(torch.tensor(0.2)))
