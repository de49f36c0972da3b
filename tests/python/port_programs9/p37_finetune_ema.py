import copy
import torch
import torch.nn as nn
class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 6, 3, padding=1), nn.BatchNorm2d(6), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(6, 10)
    def forward(self, x):
        return self.fc(self.features(x))
model = det(Backbone())
for param in model.parameters():
    param.requires_grad = False
num_ftrs = model.fc.in_features
model.fc = nn.Linear(num_ftrs, 3)
det(model.fc, 7)
params_to_update = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.SGD(params_to_update, lr=0.1, momentum=0.9)
ema = copy.deepcopy(model)
for p in ema.parameters(): p.requires_grad_(False)
decay = 0.9
x = data(4, 3, 6, 6); y = ints(3, 4)
losses = []
for _ in range(3):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward(); optimizer.step(); losses.append(loss.item())
    with torch.no_grad():
        for ema_p, p in zip(ema.parameters(), model.parameters()):
            ema_p.mul_(decay).add_(p.detach(), alpha=1 - decay)
        for eb, b in zip(ema.buffers(), model.buffers()):
            eb.copy_(b)
msd = model.state_dict()
esd = ema.state_dict()
for k in esd:
    if esd[k].dtype.is_floating_point:
        esd[k] = 0.5 * esd[k] + 0.5 * msd[k]
ema.load_state_dict(esd)
report(losses=losses, n=len(params_to_update), frozen_grad=model.features[0].weight.grad is None, ema=ema.fc.weight, bnrm=ema.features[1].running_mean,
       featgrad=[p.requires_grad for p in model.features.parameters()], nbt=msd["features.1.num_batches_tracked"])
