import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Sequential(nn.Linear(4, 4), nn.ReLU(inplace=True)), nn.Linear(4, 2)))


def replace(module):
    for name, child in module.named_children():
        if isinstance(child, nn.ReLU):
            setattr(module, name, nn.GELU())
        else:
            replace(child)


replace(model)
names = [type(m).__name__ for m in model.modules()]
for name, mod in list(model.named_modules()):
    if isinstance(mod, nn.Linear) and mod.out_features == 2:
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name) if parent_name else model
        setattr(parent, child, nn.Linear(4, 5))
det(model, seed=3)
x = data(2, 3)
report(names=names, out=model(x), last=str(model[3]), applied=model.apply(lambda m: None) is model)
