import torch
import torch.nn as nn

backbone = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6), nn.ReLU())
head = nn.Linear(6, 3)
model = det(nn.Sequential(backbone, head))
for p in backbone.parameters():
    p.requires_grad = False
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
opt = torch.optim.SGD([{"params": head.parameters()}], lr=0.1, momentum=0.9)
x, y = data(9, 4), ints(3, 9, seed=1)
for _ in range(3):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
frozen_grad = backbone[0].weight.grad
for p in backbone[2].parameters():
    p.requires_grad_(True)
opt.add_param_group({"params": backbone[2].parameters(), "lr": 0.01})
for _ in range(3):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
report(trainable=trainable, frozen_grad=frozen_grad is None, n_groups=len(opt.param_groups), lrs=[g["lr"] for g in opt.param_groups],
       loss=loss.item(), b2=backbone[2].bias, momentum_keys=sorted(opt.state[head.weight].keys()))
