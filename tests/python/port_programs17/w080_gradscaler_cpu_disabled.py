import torch
import torch.nn as nn

m = det(nn.Linear(3, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
scaler = torch.cuda.amp.GradScaler(enabled=False)
x, y = data(4, 3, seed=1), data(4, 1, seed=2)
for _ in range(2):
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=False):
        loss = nn.functional.mse_loss(m(x), y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_value_(m.parameters(), 0.1)
    scaler.step(opt)
    scaler.update()
    opt.zero_grad()
report(w=m.weight, b=m.bias, scale=scaler.get_scale(), en=scaler.is_enabled(), loss=loss)
