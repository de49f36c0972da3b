import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", enabled=False)
x, y = data(3, 4, seed=1), torch.tensor([0, 1, 1])
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    out = m(x)
    loss = nn.functional.cross_entropy(out, y)
scaler.scale(loss).backward()
scaler.unscale_(opt)
scaler.step(opt)
scaler.update()
report(out_dt=out.dtype, loss_dt=loss.dtype, loss=loss, g_dt=m[0].weight.grad.dtype, scale=scaler.get_scale(),
       enabled=scaler.is_enabled(), w=m[2].weight[0])
