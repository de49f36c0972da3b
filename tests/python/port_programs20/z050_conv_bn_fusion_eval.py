import torch
import torch.nn as nn
from torch.nn.utils import fuse_conv_bn_eval

conv = det(nn.Conv2d(2, 3, 3, padding=1))
bn = det(nn.BatchNorm2d(3), seed=1)
bn.running_mean.copy_(torch.tensor([0.1, -0.2, 0.3]))
bn.running_var.copy_(torch.tensor([1.5, 0.5, 2.0]))
conv.eval(); bn.eval()
x = data(1, 2, 5, 5)
ref = bn(conv(x))
fused = fuse_conv_bn_eval(conv, bn)
out = fused(x)
w = conv.weight * (bn.weight / torch.sqrt(bn.running_var + bn.eps)).reshape(-1, 1, 1, 1)
report(close=torch.allclose(ref, out, atol=1e-5), fb=fused.bias, manual=torch.allclose(w, fused.weight, atol=1e-6), out=out.sum())
