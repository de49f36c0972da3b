import torch

spec = data(2, 16, 20).abs()
# SpecAugment with fixed masks: frequency and time masking via arange comparisons
f0 = torch.tensor([3, 9]); fw = torch.tensor([4, 2])
t0 = torch.tensor([5, 0]); tw = torch.tensor([6, 3])
freq = torch.arange(16).view(1, 16, 1)
time = torch.arange(20).view(1, 1, 20)
fmask = (freq >= f0.view(-1, 1, 1)) & (freq < (f0 + fw).view(-1, 1, 1))
tmask = (time >= t0.view(-1, 1, 1)) & (time < (t0 + tw).view(-1, 1, 1))
masked = spec.masked_fill(fmask | tmask, 0.0)
mean_fill = torch.where(fmask, spec.mean(), spec)
# time warping by roll and per-utterance CMVN
rolled = torch.roll(spec, shifts=2, dims=-1)
cmvn = (spec - spec.mean(-1, keepdim=True)) / (spec.std(-1, keepdim=True) + 1e-5)
delta = spec[..., 2:] - spec[..., :-2]
report(zeros=(masked == 0).sum(dim=(1, 2)), masked_sum=masked.sum().item(), mean_fill=mean_fill.sum().item(),
       rolled=rolled[0, 0, :5], cmvn_mean=cmvn.mean(-1).abs().max().item() < 1e-5, cmvn_std=cmvn.std(-1)[0, :3],
       delta=delta[1, 1, :4], fmask_any=fmask.any(-1).squeeze(-1) if fmask.dim() > 3 else fmask.squeeze(-1))
