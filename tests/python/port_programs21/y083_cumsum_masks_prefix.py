import torch

attn = torch.tensor([[0, 0, 1, 1, 1], [1, 1, 1, 0, 0]])
pos = attn.long().cumsum(-1) - 1
pos.masked_fill_(attn == 0, 1)
lengths = torch.tensor([3, 1, 4])
mask = torch.arange(5)[None, :] < lengths[:, None]
x = data(3, 5, seed=1)
mean = (x * mask).sum(1) / mask.sum(1)
last = x[torch.arange(3), lengths - 1]
csum = torch.cumsum(mask, dim=1)
first_true = (csum == 1) & mask
report(pos=pos, mask=mask, mean=mean, last=last, csum=csum, csd=csum.dtype, first=first_true,
       rev=torch.flip(torch.cumsum(torch.flip(x, [1]), 1), [1]), seqmask=(~mask).float() * -1e4)
