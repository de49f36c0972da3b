import torch
import torch.nn as nn
asm = nn.AdaptiveLogSoftmaxWithLoss(in_features=8, n_classes=20, cutoffs=[4, 10], div_value=2.0)
det(asm, 0, 0.3)
h = data(6, 8)
target = torch.tensor([0, 3, 5, 9, 12, 19])
out = asm(h, target)
out.loss.backward()
lp = asm.log_prob(h)
pred = asm.predict(h)
report(output=out.output, loss=out.loss, lp_sum=lp.exp().sum(1), pred=pred, lp=lp[0, :5], g=asm.head.weight.grad.abs().sum(), n=len(asm.tail))
