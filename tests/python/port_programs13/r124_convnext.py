import torch
import torch.nn as nn
import torch.nn.functional as F
def drop_path(x, drop_prob=0.0, training=False):
    if drop_prob == 0.0 or not training:
        return x
    keep = 1 - drop_prob
    mask = x.new_empty((x.shape[0],) + (1,) * (x.ndim - 1)).bernoulli_(keep)
    return x * mask / keep
class LayerNorm2d(nn.LayerNorm):
    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)
class Block(nn.Module):
    def __init__(self, dim, ls=1e-6):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(ls * torch.ones(dim)) if ls > 0 else None
    def forward(self, x):
        inp = x
        x = self.dwconv(x).permute(0, 2, 3, 1)
        x = self.pwconv2(self.act(self.pwconv1(self.norm(x))))
        if self.gamma is not None:
            x = self.gamma * x
        return inp + drop_path(x.permute(0, 3, 1, 2), 0.1, self.training)
net = nn.Sequential(nn.Conv2d(3, 8, 2, 2), LayerNorm2d(8, eps=1e-6), Block(8), Block(8))
det(net, 0, 0.2)
for m in net.modules():
    if isinstance(m, Block):
        m.gamma.data.fill_(0.5)
net.eval()
x = data(2, 3, 8, 8)
y = net(x)
y.mean().backward()
report(y=y[0, :2, 0], g=net[2].gamma.grad, nparams=sum(p.numel() for p in net.parameters()), gdw=net[2].dwconv.weight.grad[0, 0, 3])
