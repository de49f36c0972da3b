import torch
import torch.nn as nn

asm = det(nn.AdaptiveLogSoftmaxWithLoss(6, 10, cutoffs=[4, 8], div_value=2.0))
h = data(5, 6)
t = torch.tensor([0, 3, 5, 8, 9])
out = asm(h, t)
lp = asm.log_prob(h)
pred = asm.predict(h)
out.loss.backward()
report(loss=out.loss, output=out.output, lp_sum=lp.exp().sum(1), pred=pred, g=asm.head.weight.grad.sum())
