import torch

x = torch.tensor([-2.0, float("nan"), 0.5, float("inf"), -float("inf"), 3.0])
report(cl=x.clamp(-1, 1), cm=x.clamp(min=0), mx=torch.maximum(x, torch.zeros(6)), fmax=torch.fmax(x, torch.zeros(6)),
       nz=torch.nan_to_num(x), nz2=torch.nan_to_num(x, nan=0.0, posinf=9.0, neginf=-9.0), isf=torch.isfinite(x),
       sig=torch.sigmoid(x), smax=torch.softmax(torch.tensor([1.0, float("-inf"), 2.0]), 0), allinf=torch.softmax(torch.full((3,), float("-inf")), 0),
       lse=torch.logsumexp(torch.tensor([float("-inf"), float("-inf")]), 0), relu=torch.relu(x), sign=torch.sign(x), amax=torch.max(x),
       nanmax=torch.nan_to_num(x, nan=-1e9).max(), sort=x.sort().values, argsort=x.argsort(), xlogy=torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])))
