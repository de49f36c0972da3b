import torch
import torch.nn as nn
def fuse_conv_bn(conv, bn):
    fused = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, stride=conv.stride, padding=conv.padding, groups=conv.groups, bias=True)
    w = conv.weight.clone().view(conv.out_channels, -1)
    scale = bn.weight.div(torch.sqrt(bn.eps + bn.running_var))
    fused.weight.data.copy_(torch.mm(torch.diag(scale), w).view(fused.weight.size()))
    b = conv.bias if conv.bias is not None else torch.zeros(conv.weight.size(0))
    fused.bias.data.copy_(bn.bias + (b - bn.running_mean) * scale)
    return fused
class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        hidden = int(round(inp * expand_ratio)); self.use_res = stride == 1 and inp == oup
        self.conv = nn.Sequential(nn.Conv2d(inp, hidden, 1, 1, 0, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(inplace=True),
                                  nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(inplace=True),
                                  nn.Conv2d(hidden, oup, 1, 1, 0, bias=False), nn.BatchNorm2d(oup))
    def forward(self, x):
        return x + self.conv(x) if self.use_res else self.conv(x)
block = det(InvertedResidual(4, 4, 1, 2), scale=0.4)
x = data(2, 4, 6, 6)
block.train()
for _ in range(3):
    block(x)
block.eval()
with torch.no_grad():
    ref = block(x)
    c = block.conv
    fused = nn.Sequential(fuse_conv_bn(c[0], c[1]), nn.ReLU6(), fuse_conv_bn(c[3], c[4]), nn.ReLU6(), fuse_conv_bn(c[6], c[7]))
    out = x + fused(x)
report(ref=ref[0, :, 2, 2], diff=(ref - out).abs().max().item() < 1e-4, rv=c[4].running_var, nbt=c[1].num_batches_tracked)
