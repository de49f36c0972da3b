import torch
import torch.nn as nn

asm = nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs=[5, 12], div_value=2.0)
det(asm)
x = data(6, 8)
y = torch.tensor([0, 4, 7, 12, 19, 3])
out = asm(x, y)
out.loss.backward()
lp = asm.log_prob(x)
report(output=out.output, loss=out.loss, lp_sum=lp.exp().sum(1), pred=asm.predict(x), head_shape=list(asm.head.weight.shape),
       tail=[list(m[0].weight.shape) for m in asm.tail], g=asm.head.weight.grad.abs().sum())
