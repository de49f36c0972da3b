import torch

lengths = torch.tensor([2, 3, 1])
batch = torch.repeat_interleave(torch.arange(3), lengths)
offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)[:-1]])
x = data(6, 2, seed=1)
seg_sum = torch.zeros(3, 2).index_add_(0, batch, x)
beams = data(2, 3, seed=2).repeat_interleave(4, dim=0)
exp = data(2, 1, 3, seed=3).expand(2, 4, 3).reshape(8, 3)
report(batch=batch, offsets=offsets, seg_sum=seg_sum, beams=beams.shape, eq=torch.equal(beams, exp),
       out_size=torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([2, 1]), output_size=3))
