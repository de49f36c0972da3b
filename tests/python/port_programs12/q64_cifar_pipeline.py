import torch
import torch.nn as nn
import torch.nn.functional as F
class BasicBlock(nn.Module):
    expansion = 1
    def __init__(self, in_planes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, kernel_size=3, stride=stride, padding=1, bias=False); self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=1, padding=1, bias=False); self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != self.expansion * planes:
            self.shortcut = nn.Sequential(nn.Conv2d(in_planes, self.expansion * planes, kernel_size=1, stride=stride, bias=False), nn.BatchNorm2d(self.expansion * planes))
    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += self.shortcut(x)
        return F.relu(out)
class ResNet(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.in_planes = 4
        self.conv1 = nn.Conv2d(3, 4, 3, 1, 1, bias=False); self.bn1 = nn.BatchNorm2d(4)
        self.layer1 = self._make_layer(4, 1, 1); self.layer2 = self._make_layer(8, 1, 2)
        self.linear = nn.Linear(8, num_classes)
    def _make_layer(self, planes, num_blocks, stride):
        strides = [stride] + [1] * (num_blocks - 1); layers = []
        for s in strides:
            layers.append(BasicBlock(self.in_planes, planes, s)); self.in_planes = planes
        return nn.Sequential(*layers)
    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.layer2(self.layer1(out))
        out = F.avg_pool2d(out, out.size(3))
        return self.linear(out.view(out.size(0), -1))
imgs = (data(6, 3, 8, 8) * 60 + 128).clamp(0, 255).to(torch.uint8)
labels = ints(4, 6)
mean = torch.tensor([0.4914, 0.4822, 0.4465]).view(1, 3, 1, 1); std = torch.tensor([0.2470, 0.2435, 0.2616]).view(1, 3, 1, 1)
def augment(batch, offsets, flips):
    padded = F.pad(batch, (2, 2, 2, 2), mode="reflect")
    out = torch.stack([padded[i, :, dy:dy + 8, dx:dx + 8] for i, (dy, dx) in enumerate(offsets)])
    out[flips] = out[flips].flip(-1)
    return out
model = det(ResNet(), scale=0.3)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4, nesterov=True)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
crit = nn.CrossEntropyLoss(label_smoothing=0.1)
losses = []
for epoch in range(4):
    model.train()
    x = (imgs.float() / 255 - mean) / std
    x = augment(x, [(epoch % 3, (epoch + i) % 5) for i in range(6)], torch.tensor([i % 2 == epoch % 2 for i in range(6)]))
    lam = 0.7
    perm = torch.tensor([5, 4, 3, 2, 1, 0])
    mixed = lam * x + (1 - lam) * x[perm]
    out = model(mixed)
    loss = lam * crit(out, labels) + (1 - lam) * crit(out, labels[perm])
    opt.zero_grad(); loss.backward(); opt.step(); sched.step(); losses.append(loss.item())
model.eval()
with torch.no_grad():
    logits = model((imgs.float() / 255 - mean) / std)
    correct = (logits.argmax(1) == labels).sum().item()
report(losses=losses, correct=correct, logits=logits, rv=model.layer2[0].shortcut[1].running_var, lr=sched.get_last_lr())
