import torch
import torch.nn as nn
class DSConv(nn.Module):
    def __init__(self, i, o, stride=1, dilation=1):
        super().__init__()
        self.dw = nn.Conv2d(i, i, 3, stride, padding=dilation, dilation=dilation, groups=i, bias=False)
        self.pw = nn.Conv2d(i, o, 1, bias=False)
        self.bn = nn.BatchNorm2d(o)
        self.act = nn.ReLU6(inplace=True)
    def forward(self, x):
        return self.act(self.bn(self.pw(self.dw(x))))
net = det(nn.Sequential(DSConv(4, 8), DSConv(8, 8, stride=2, dilation=2), nn.Conv2d(8, 8, 3, groups=4, padding="same"),
                        nn.Conv2d(8, 4, (1, 3), padding=(0, 1), padding_mode="circular")))
x = data(2, 4, 11, 11)
y = net(x)
y.mean().backward()
c1 = det(nn.Conv1d(4, 4, 5, padding="same", dilation=2, groups=2), 3)
z = c1(data(1, 4, 10))
ct = det(nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1, groups=2, dilation=1), 4)
u = ct(data(1, 4, 3, 3))
report(shape=list(y.shape), y=y[0, :, 0, :3], gdw=net[0].dw.weight.grad[:2, 0], z=z[0, :, :4], u=list(u.shape), usum=u.sum(), rm=net[0].bn.running_var[:3])
