import torch
import torch.nn as nn

bag = det(nn.EmbeddingBag(6, 2, mode="max"))
x = torch.tensor([[0, 1, 1], [5, 4, 2]])
out = bag(x)
out.sum().backward()
bag2 = det(nn.EmbeddingBag(6, 2, mode="sum"))
w = torch.tensor([[1.0, 0.5, 2.0], [0.1, 0.2, 0.3]])
out2 = bag2(x, per_sample_weights=w)
out2.pow(2).sum().backward()
report(out=out, g=bag.weight.grad, out2=out2, g2=bag2.weight.grad)
