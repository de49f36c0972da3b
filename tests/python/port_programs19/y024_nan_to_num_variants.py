import torch
x = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5])
h = x.half()
report(a=torch.nan_to_num(x), b=x.nan_to_num(nan=0.0, posinf=1e3, neginf=-1e3), c=torch.nan_to_num(h), d=x.nan_to_num(posinf=7.0),
       e=torch.isinf(x), f=torch.isposinf(x), g=torch.isneginf(x), h=torch.isreal(x), i=torch.isfinite(torch.tensor([1, 2])), j=x.clone().nan_to_num_(0.5))
