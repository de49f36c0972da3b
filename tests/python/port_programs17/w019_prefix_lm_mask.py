import torch

T = 6
prefix = torch.tensor([2, 4])
i = torch.arange(T)
causal = i[None, :] <= i[:, None]
bidir = (i[None, None, :] < prefix[:, None, None]) & (i[None, :, None] < prefix[:, None, None])
mask = causal[None] | bidir
cnt = mask.sum((1, 2))
report(mask=mask.int(), cnt=cnt, any_=mask.any(-1).all().item(), dtype=mask.dtype)
