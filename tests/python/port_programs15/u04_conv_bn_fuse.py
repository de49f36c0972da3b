import copy
import torch
import torch.nn as nn


def fuse_conv_bn(conv, bn):
    fused = copy.deepcopy(conv)
    w = conv.weight
    mean, var = bn.running_mean, bn.running_var
    std = torch.sqrt(var + bn.eps)
    scale = bn.weight / std
    fused.weight = nn.Parameter(w * scale.reshape(-1, 1, 1, 1))
    b = conv.bias if conv.bias is not None else torch.zeros_like(mean)
    fused.bias = nn.Parameter((b - mean) * scale + bn.bias)
    return fused


conv = nn.Conv2d(3, 5, 3, padding=1, bias=False)
bn = nn.BatchNorm2d(5)
det(nn.ModuleList([conv, bn]))
bn.train()
for i in range(3):
    bn(conv(data(4, 3, 6, 6, seed=10 + i)))
bn.eval()
x = data(2, 3, 6, 6)
with torch.no_grad():
    ref = bn(conv(x))
    f = fuse_conv_bn(conv, bn)
    out = f(x)
report(maxdiff=(ref - out).abs().max().item() < 1e-5, rv=bn.running_var, out=out[0, :, 0, 0],
       has_bias=f.bias is not None, bias_shape=tuple(f.bias.shape), momentum=bn.momentum)
