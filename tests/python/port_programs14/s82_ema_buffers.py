import copy
import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 1)))
ema = copy.deepcopy(model).eval()
for p in ema.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
decay = 0.8
for step in range(4):
    x = data(6, 3, seed=step)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for e, p in zip(ema.parameters(), model.parameters()):
            e.mul_(decay).add_(p.detach(), alpha=1 - decay)
        for e, b in zip(ema.buffers(), model.buffers()):
            e.copy_(b)
msd = model.state_dict()
esd = ema.state_dict()
report(w=ema[0].weight[0], rm=ema[1].running_mean, nbt=esd["1.num_batches_tracked"], diff=(msd["2.weight"] - esd["2.weight"]).abs().sum(),
       eval_out=ema(data(2, 3, seed=9)), train_flag=[model.training, ema.training])
