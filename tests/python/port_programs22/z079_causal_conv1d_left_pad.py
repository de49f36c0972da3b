import torch
import torch.nn as nn
import torch.nn.functional as F

class CausalConv1d(nn.Conv1d):
    def __init__(self, c_in, c_out, k, dilation=1, groups=1):
        super().__init__(c_in, c_out, k, dilation=dilation, groups=groups, padding=0)
        self.left = (k - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left, 0)))

conv = det(CausalConv1d(4, 4, 3, dilation=2, groups=4), seed=100)
x = data(2, 4, 10, seed=101).requires_grad_()
y = conv(x)
y[:, :, 5].sum().backward()
dep = (x.grad.abs().sum((0, 1)) > 0).long()
mamba_style = det(nn.Conv1d(4, 4, 4, groups=4, padding=3), seed=102)
z = mamba_style(x.detach())[..., :10]
report(y=y[1, 2], dep=dep, z=z[0, 1], shape=y.shape, rep_pad=F.pad(torch.arange(4.).view(1, 1, 4), (2, 1), mode="replicate"),
       refl=F.pad(torch.arange(4.).view(1, 1, 4), (2, 2), mode="reflect"), circ=F.pad(torch.arange(4.).view(1, 1, 4), (1, 2), mode="circular"))
