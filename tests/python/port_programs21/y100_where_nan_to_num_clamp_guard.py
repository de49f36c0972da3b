import torch

x = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), -2.0, 0.0])
report(n2n=torch.nan_to_num(x), n2n_args=torch.nan_to_num(x, nan=0.0, posinf=1e4, neginf=-1e4),
       isfin=torch.isfinite(x), isinf=torch.isinf(x), isnan=x.isnan(), where=torch.where(torch.isnan(x), torch.zeros_like(x), x),
       clamp=x.clamp(-1, 1), logsafe=torch.log(x.clamp(min=1e-8)), div0=torch.tensor([1.0, -1.0, 0.0]) / 0,
       nansum=torch.nansum(x[:2]), nanmean=torch.nanmean(torch.tensor([1.0, float("nan"), 3.0])),
       sign=torch.sign(x), signbit=torch.signbit(torch.tensor([-0.0, 0.0])), maxnan=torch.maximum(x, torch.zeros(6)),
       fmax=torch.fmax(x, torch.zeros(6)), any_nan=bool(torch.isnan(x).any()))
