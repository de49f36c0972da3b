import torch
vals = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
seg = torch.tensor([0, 0, 2, 2, 2])
s = torch.zeros(3).index_add_(0, seg, vals)
cnt = torch.bincount(seg, minlength=3)
mx = torch.full((3,), float("-inf")).scatter_reduce(0, seg, vals, "amax")
ptr = torch.cat([torch.zeros(1, dtype=torch.long), cnt.cumsum(0)])
report(s=s, cnt=cnt, mean=s / cnt.clamp(min=1), mx=mx, ptr=ptr, seg_csr=torch.segment_reduce(vals, "sum", lengths=cnt) if hasattr(torch, "segment_reduce") else s)
