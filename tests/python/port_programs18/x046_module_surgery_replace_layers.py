import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.Conv2d(3, 2, 3), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2, 5)))


def replace(module, old, make):
    for name, child in module.named_children():
        if isinstance(child, old):
            setattr(module, name, make(child))
        else:
            replace(child, old, make)


replace(m, nn.ReLU, lambda c: nn.LeakyReLU(0.1))
m[7] = nn.Linear(2, 3)
det(m[7], seed=5)
m[1] = nn.Identity()
names = [type(c).__name__ for c in m.children()]
x = data(2, 1, 6, 6, seed=1)
report(names=names, out=m(x), mods=[n for n, _ in m.named_modules()][:5], n=len(list(m.modules())))
