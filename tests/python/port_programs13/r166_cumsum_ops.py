import torch
m = torch.tensor([[True, False, True, True], [False, False, True, False]])
pos = m.cumsum(1) * m
first = m.int().argmax(1)
last = m.size(1) - 1 - m.flip(1).int().argmax(1)
segments = torch.tensor([0, 0, 1, 1, 1, 2])
vals = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
starts = torch.cat([torch.tensor([True]), segments[1:] != segments[:-1]])
seg_cumsum = vals.cumsum(0) - torch.repeat_interleave(torch.cat([torch.zeros(1), vals.cumsum(0)])[torch.nonzero(starts).squeeze(1)], torch.bincount(segments))
run = torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 2, 1]), return_counts=True)
report(pos=pos, first=first, last=last, seg=seg_cumsum, run=[r for r in run], dt=str(pos.dtype))
