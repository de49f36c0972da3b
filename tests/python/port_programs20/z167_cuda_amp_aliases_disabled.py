import torch
import torch.nn as nn

m = det(nn.Linear(3, 2))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
scaler = torch.cuda.amp.GradScaler(enabled=False)
x = data(4, 3)
with torch.cuda.amp.autocast(enabled=False):
    loss = m(x).pow(2).mean()
scaler.scale(loss).backward()
scaler.step(opt)
scaler.update()
with torch.autocast(device_type="cuda", enabled=False):
    y = m(x)
report(w=m.weight, y_dt=y.dtype, en=scaler.is_enabled())
