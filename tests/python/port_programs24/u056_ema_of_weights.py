import copy
import torch
import torch.nn as nn


class ModelEMA:
    def __init__(self, model, decay=0.9):
        self.ema = copy.deepcopy(model).eval()
        self.decay = decay
        self.updates = 0
        for p in self.ema.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        self.updates += 1
        d = self.decay * (1 - torch.exp(torch.tensor(-self.updates / 5.0))).item()
        msd = model.state_dict()
        for k, v in self.ema.state_dict().items():
            if v.dtype.is_floating_point:
                v.mul_(d).add_(msd[k].detach(), alpha=1 - d)
            else:
                v.copy_(msd[k])


model = det(nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2)))
ema = ModelEMA(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = data(16, 4), ints(2, 16, seed=4)
for step in range(6):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    ema.update(model)
avg = torch.optim.swa_utils.AveragedModel(model, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.5))
avg.update_parameters(model)
report(ema_w=ema.ema[0].weight[0], model_w=model[0].weight[0], tracked=ema.ema[1].num_batches_tracked, rm=ema.ema[1].running_mean[:3],
       rg=ema.ema[0].weight.requires_grad, n_avg=avg.n_averaged, avg_w=avg.module[3].bias, ema_out=ema.ema(x[:2]))
