import torch

x = torch.tensor([3.2, float("nan"), 1.5, 7.7, 2.2, float("nan"), 5.0, 0.1, 9.9, 4.4])
missing = torch.isnan(x)
filled = torch.where(missing, torch.nanmedian(x), x)
mean_fill = torch.nan_to_num(x, nan=x.nanmean().item())
qs = torch.quantile(filled, torch.tensor([0.25, 0.5, 0.75]))
bins = torch.bucketize(filled, qs)
bins_right = torch.bucketize(filled, qs, right=True)
edges = torch.linspace(filled.min().item(), filled.max().item(), 5)
hist = torch.histc(filled, bins=4, min=filled.min().item(), max=filled.max().item())
rank = filled.argsort().argsort()
minmax = (filled - filled.min()) / (filled.max() - filled.min())
clip = filled.clamp(min=qs[0].item(), max=qs[2].item())
features = torch.stack([filled, missing.float(), bins.float()], 1)
report(filled=filled, mean_fill=mean_fill, qs=qs, bins=bins, bins_right=bins_right, edges=edges, hist=hist,
       rank=rank, minmax=minmax, clip=clip, features_dtype=features.dtype, nanmedian=torch.nanmedian(x).item(),
       nansum=x.nansum().item(), quantile_lin=torch.quantile(filled, 0.4, interpolation="nearest").item())
