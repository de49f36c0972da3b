import torch
img = (data(8, 8, seed=14) * 30 + 100).clamp(0, 255).to(torch.uint8)
hist = torch.bincount(img.flatten().long(), minlength=256)
cdf = hist.cumsum(0)
cdf_min = cdf[cdf > 0].min()
lut = ((cdf - cdf_min).float() / (cdf[-1] - cdf_min) * 255).round().clamp(0, 255).to(torch.uint8)
eq = lut[img.long()]
report(img_sum=img.sum(), eq=eq[:2], eqdt=eq.dtype, lut_nz=torch.count_nonzero(lut), mn=eq.min(), mx=eq.max(), h=torch.histc(img.float(), 8, 0, 255))
