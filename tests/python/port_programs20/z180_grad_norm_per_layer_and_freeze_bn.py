import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(), nn.Linear(12, 2)))


def freeze_bn(module):
    if isinstance(module, nn.BatchNorm2d):
        module.eval()
        for p in module.parameters():
            p.requires_grad_(False)


m.train()
m.apply(freeze_bn)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, m.parameters()), lr=0.1)
x, y = data(2, 1, 4, 4), ints(2, 2)
for _ in range(2):
    opt.zero_grad()
    nn.functional.cross_entropy(m(x), y).backward()
    opt.step()
report(rm=m[1].running_mean, nbt=m[1].num_batches_tracked, bn_grad=m[1].weight.grad is None, w=m[4].weight.sum(), ng=len(opt.param_groups[0]["params"]))
