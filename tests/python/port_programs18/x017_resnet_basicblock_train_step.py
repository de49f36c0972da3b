import torch
import torch.nn as nn


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inp, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(inp, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = None
        if stride != 1 or inp != planes:
            self.downsample = nn.Sequential(nn.Conv2d(inp, planes, 1, stride, bias=False), nn.BatchNorm2d(planes))

    def forward(self, x):
        idt = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + idt)


net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), BasicBlock(4, 4), BasicBlock(4, 8, 2), nn.AdaptiveAvgPool2d(1),
                    nn.Flatten(), nn.Linear(8, 3))
det(net, scale=0.3)
for mod in net.modules():
    if isinstance(mod, BasicBlock):
        nn.init.zeros_(mod.bn2.weight)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=5e-4)
x, y = data(4, 3, 8, 8, seed=2), torch.tensor([0, 1, 2, 1])
losses = []
for _ in range(3):
    loss = nn.functional.cross_entropy(net(x), y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(losses=losses, rm=net[2].bn1.running_mean, nbt=net[2].bn1.num_batches_tracked.item(), eval=net.eval()(x))
