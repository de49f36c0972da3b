import torch

dst = torch.tensor([2, 0, 1, 2, 0, 2, 1])
score = data(7, seed=199)
order = torch.argsort(dst, stable=True)
sd = dst[order]
ptr = torch.zeros(4, dtype=torch.long)
ptr[1:] = torch.cumsum(torch.bincount(sd, minlength=3), 0)
seg_max = torch.segment_reduce(score[order], "max", offsets=ptr) if hasattr(torch, "segment_reduce") else None
e = torch.exp(score - torch.zeros(3).scatter_reduce(0, dst, score, "amax", include_self=False)[dst])
den = torch.zeros(3).index_add(0, dst, e)
att = e / den[dst]
cnt = torch.zeros(3).index_add(0, dst, torch.ones(7))
uniq, inv = torch.unique(dst, return_inverse=True)
report(order=order, ptr=ptr, att=att, cnt=cnt, uniq=uniq, inv=inv, seg_max=seg_max,
       rep=torch.repeat_interleave(torch.arange(3), torch.bincount(dst)))
