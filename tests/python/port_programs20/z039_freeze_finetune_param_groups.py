import torch
import torch.nn as nn

backbone = det(nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6)))
head = det(nn.Linear(6, 2), seed=1)
for p in backbone.parameters():
    p.requires_grad = False
for p in backbone[2].parameters():
    p.requires_grad = True
model = nn.Sequential(backbone, head)
opt = torch.optim.SGD([{"params": [p for p in backbone.parameters() if p.requires_grad], "lr": 0.01},
                       {"params": head.parameters()}], lr=0.1, momentum=0.9)
x, y = data(5, 4), ints(2, 5)
w0 = backbone[0].weight.clone()
for _ in range(3):
    opt.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
opt.add_param_group({"params": backbone[0].parameters(), "lr": 0.001})
report(frozen=torch.equal(w0, backbone[0].weight), g0=backbone[0].weight.grad is None, w2=backbone[2].weight, hw=head.weight,
       lrs=[g["lr"] for g in opt.param_groups], mom=[g["momentum"] for g in opt.param_groups], ng=len(opt.param_groups),
       trainable=sum(p.numel() for p in model.parameters() if p.requires_grad))
