import torch
import torch.nn as nn
def _make_divisible(v, divisor, min_value=None):
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v
class SqueezeExcitation(nn.Module):
    def __init__(self, input_channels, squeeze_channels):
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Conv2d(input_channels, squeeze_channels, 1)
        self.fc2 = nn.Conv2d(squeeze_channels, input_channels, 1)
        self.activation = nn.ReLU(); self.scale_activation = nn.Hardsigmoid()
    def forward(self, input):
        scale = self.scale_activation(self.fc2(self.activation(self.fc1(self.avgpool(input)))))
        return scale * input
class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        self.conv = nn.Sequential(
            nn.Conv2d(inp, hidden_dim, 1, 1, 0, bias=False), nn.BatchNorm2d(hidden_dim), nn.ReLU6(inplace=True),
            nn.Conv2d(hidden_dim, hidden_dim, 3, stride, 1, groups=hidden_dim, bias=False), nn.BatchNorm2d(hidden_dim), nn.Hardswish(),
            SqueezeExcitation(hidden_dim, _make_divisible(hidden_dim // 4, 8)),
            nn.Conv2d(hidden_dim, oup, 1, 1, 0, bias=False), nn.BatchNorm2d(oup))
    def forward(self, x):
        return x + self.conv(x) if self.use_res_connect else self.conv(x)
net = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1, bias=False), nn.BatchNorm2d(8), nn.Hardswish(),
                    InvertedResidual(8, 8, 1, 2), InvertedResidual(8, 12, 2, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.0), nn.Linear(12, 5))
det(net, 0, 0.3)
opt = torch.optim.RMSprop(net.parameters(), lr=0.01, alpha=0.9, eps=0.0316, momentum=0.9, weight_decay=1e-5)
x = data(4, 3, 16, 16); y = ints(5, 4)
losses = []
for _ in range(3):
    opt.zero_grad(); loss = nn.functional.cross_entropy(net(x), y); loss.backward(); opt.step(); losses.append(loss.item())
net.eval()
with torch.no_grad():
    out = net(x)
report(losses=losses, out=out, md=[_make_divisible(v, 8) for v in (3, 17, 30, 100)], rv=net[1].running_var)
