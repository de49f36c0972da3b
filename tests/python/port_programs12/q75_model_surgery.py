import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Conv2d(4, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(4, 10)
    def forward(self, x):
        return self.fc(torch.flatten(self.features(x), 1))
model = det(Net())
for name, module in list(model.named_modules()):
    if isinstance(module, nn.ReLU):
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name)
        setattr(parent, child, nn.LeakyReLU(0.1))
num_ftrs = model.fc.in_features
model.fc = nn.Linear(num_ftrs, 3)
det(model.fc, seed=4)
for p in model.features.parameters():
    p.requires_grad = False
def freeze_bn(m):
    if isinstance(m, nn.BatchNorm2d):
        m.eval()
model.train(); model.apply(freeze_bn)
x = data(2, 3, 7, 7)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
before = model.features[1].running_mean.clone()
for _ in range(2):
    opt.zero_grad(); model(x).sum().backward(); opt.step()
counts = {}
for m in model.modules():
    counts[type(m).__name__] = counts.get(type(m).__name__, 0) + 1
feat = model.features
model.features[6] = nn.Identity()
out_shape = model.features(x).shape
del model.fc
has = hasattr(model, "fc")
model.fc = nn.Sequential(nn.Flatten(), nn.Linear(4 * 3 * 3, 2))
for m in model.modules():
    if isinstance(m, nn.Linear):
        m.reset_parameters()
report(same_rm=torch.equal(before, model.features[1].running_mean), counts=counts, out_shape=out_shape, has=has, n_train=sum(p.numel() for p in model.parameters() if p.requires_grad),
       bn_training=[m.training for m in feat.modules() if isinstance(m, nn.BatchNorm2d)], gnone=model.features[0].weight.grad is None, types=[type(m).__name__ for m in model.features])
