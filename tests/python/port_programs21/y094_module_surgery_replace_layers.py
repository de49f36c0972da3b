import torch
import torch.nn as nn

model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Conv2d(2, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8, 3))
for name, mod in model.named_children():
    if isinstance(mod, nn.ReLU):
        setattr(model, name, nn.LeakyReLU(0.1))
model[-1] = nn.Linear(8, 5)
det(model, seed=1)
names = [n for n, _ in model.named_modules()]
model.add_module("soft", nn.LogSoftmax(dim=1))
x = data(2, 1, 6, 6, seed=2)
out = model(x)
del model[-1]
report(names=names, types=[type(m).__name__ for m in model], out=out.detach(), n=len(model), last=type(model[-1]).__name__,
       sub=str(model[1]), get=type(model.get_submodule("5")).__name__)
