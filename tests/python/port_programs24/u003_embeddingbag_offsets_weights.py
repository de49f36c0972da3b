import torch
import torch.nn as nn

bag = det(nn.EmbeddingBag(10, 3, mode="sum"))
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 4, 4, 6])  # an empty bag in the middle
w = torch.tensor([0.5, 1.0, 2.0, -1.0, 0.25, 0.75, 1.5, 3.0])
out = bag(inp, offsets, per_sample_weights=w)
out.sum().backward()
grad = bag.weight.grad.clone()
bag_mean = det(nn.EmbeddingBag(10, 3, mode="mean"))
bag_max = det(nn.EmbeddingBag(10, 3, mode="max"))
out_mean = bag_mean(inp, offsets)
out_max = bag_max(inp, offsets)
inc = det(nn.EmbeddingBag(10, 3, mode="sum", include_last_offset=True))
out_inc = inc(inp, torch.tensor([0, 3, 5, 8]))
two_d = bag_mean(torch.tensor([[1, 2], [3, 3], [9, 0]]))
pad = det(nn.EmbeddingBag(10, 3, mode="mean", padding_idx=0))
out_pad = pad(torch.tensor([[0, 1, 2], [0, 0, 5]]))
report(out=out, grad=grad, out_mean=out_mean, out_max=out_max, out_inc=out_inc, two_d=two_d, out_pad=out_pad)
