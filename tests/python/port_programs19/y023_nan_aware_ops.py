import torch
x = torch.tensor([[1.0, float("nan"), 3.0], [float("nan"), float("nan"), 2.0]])
report(ns=torch.nansum(x), ns0=x.nansum(0), nm=torch.nanmean(x, dim=1), nm_all=x.nanmean(), nmed=x.nanmedian(), nmed1=x.nanmedian(1).values,
       nq=torch.nanquantile(x, 0.5, dim=1), isn=x.isnan(), fin=torch.isfinite(x), mx=x.max(), amx=x.amax(1), fmax=torch.fmax(x, torch.zeros(3)), sumv=x.sum())
