import torch
import torch.nn as nn

cfg = [4, "M", 8, "M"]
layers = []
c = 1
for v in cfg:
    if v == "M":
        layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
    else:
        layers += [nn.Conv2d(c, v, kernel_size=3, padding=1), nn.BatchNorm2d(v), nn.ReLU(inplace=True)]
        c = v
model = nn.Sequential(*layers, nn.AdaptiveAvgPool2d((2, 2)), nn.Flatten(), nn.Dropout(0.0), nn.Linear(32, 4))
det(model, scale=0.3)
for mod in model.modules():
    if isinstance(mod, nn.Conv2d):
        nn.init.constant_(mod.bias, 0.01)
x = data(3, 1, 8, 8)
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[1, 2], gamma=0.1)
y = ints(4, 3)
ls = []
for _ in range(3):
    opt.zero_grad()
    l = nn.functional.cross_entropy(model(x), y, label_smoothing=0.1)
    l.backward()
    opt.step()
    sched.step()
    ls.append(l.item())
model.eval()
report(ls=ls, out=model(x), lr=sched.get_last_lr(), n=len(model))
