import torch
spec = data(2, 16, 20).exp()
def freq_mask(spec, f0, f, value=0.0):
    spec = spec.clone()
    spec[:, f0:f0 + f, :] = value
    return spec
def time_mask(spec, t0, t):
    mask = torch.zeros_like(spec, dtype=torch.bool)
    mask[..., t0:t0 + t] = True
    return spec.masked_fill(mask, spec.mean())
a = freq_mask(spec, 3, 4)
b = time_mask(a, 10, 5)
idx = torch.arange(20)
warp = torch.where((idx >= 5) & (idx < 15), idx + 1, idx).clamp(max=19)
c = b.index_select(-1, warp)
mask2 = (torch.arange(16)[:, None] >= torch.tensor([2, 7])[None, None, :].squeeze(0)) 
logs = torch.log1p(c)
norm = (logs - logs.mean(dim=(1, 2), keepdim=True)) / logs.std(dim=(1, 2), keepdim=True)
report(zeros=(a == 0).sum(), mean=b[0, 0, 12], c=c[1, 0, 4:8], norm=norm[0, 15, :4], m2=list(mask2.shape), m2s=mask2.sum())
