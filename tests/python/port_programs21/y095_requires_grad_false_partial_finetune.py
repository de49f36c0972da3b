import torch
import torch.nn as nn

backbone = det(nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6)), seed=1)
head = det(nn.Linear(6, 2), seed=2)
backbone.requires_grad_(False)
backbone.eval()
opt = torch.optim.Adam(filter(lambda p: p.requires_grad, list(backbone.parameters()) + list(head.parameters())), lr=0.1)
x, y = data(5, 4, seed=3), ints(2, 5, seed=4)
hist = []
for epoch in range(3):
    with torch.no_grad():
        feats = backbone(x)
    loss = nn.functional.cross_entropy(head(feats), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
backbone[2].requires_grad_(True)
opt.add_param_group({"params": backbone[2].parameters(), "lr": 0.01})
loss = nn.functional.cross_entropy(head(backbone(x)), y)
opt.zero_grad()
loss.backward()
opt.step()
report(hist=hist, g0=backbone[0].weight.grad is None, g2=backbone[2].weight.grad.abs().sum().item() > 0,
       w=backbone[2].bias.detach(), n=len(opt.param_groups), feats_req=feats.requires_grad)
