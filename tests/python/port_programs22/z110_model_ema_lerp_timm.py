import copy
import torch
import torch.nn as nn

class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.9):
        super().__init__()
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.decay = decay

    def _update(self, model, update_fn):
        with torch.no_grad():
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                ema_v.copy_(update_fn(ema_v, model_v))

    def update(self, model):
        self._update(model, update_fn=lambda e, m: self.decay * e + (1.0 - self.decay) * m)

class ModelEmaV3(ModelEmaV2):
    @torch.no_grad()
    def update(self, model):
        ema_params = tuple(self.module.parameters())
        model_params = tuple(model.parameters())
        torch._foreach_lerp_(ema_params, model_params, weight=1.0 - self.decay)
        for ema_b, model_b in zip(self.module.buffers(), model.buffers()):
            ema_b.copy_(model_b)

model = det(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2)), seed=159)
e2, e3 = ModelEmaV2(model), ModelEmaV3(model)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
x = data(6, 3, seed=160)
for _ in range(3):
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()
    e2.update(model)
    e3.update(model)
lerp = torch.tensor([1.0, 2.0]).lerp(torch.tensor([3.0, 6.0]), 0.25)
report(e2=e2.module[2].weight, e3=e3.module[2].weight, e2_rm=e2.module[1].running_mean, e2_nbt=e2.module[1].num_batches_tracked,
       e3_nbt=e3.module[1].num_batches_tracked, lerp=lerp, eval=e2.module.training, keys=list(e2.state_dict())[:3])
