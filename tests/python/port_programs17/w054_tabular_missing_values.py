import torch

x = data(6, 3, seed=5)
x[1, 0] = float("nan")
x[3, 2] = float("nan")
x[4, 2] = float("nan")
miss = torch.isnan(x)
col_mean = torch.nanmean(x, dim=0)
imputed = torch.where(miss, col_mean.expand_as(x), x)
med = torch.nanmedian(x, dim=0)
filled = torch.nan_to_num(x, nan=-1.0)
ind = torch.cat([imputed, miss.float()], 1)
report(col_mean=col_mean, imputed=imputed, med=med.values, medi=med.indices, filled=filled[3], ind=ind[4],
       nansum=x.nansum(1), cnt=(~miss).sum(0))
