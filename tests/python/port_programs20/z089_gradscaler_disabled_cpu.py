import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
m = det(nn.Linear(3, 2)).to(device)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
scaler = torch.amp.GradScaler(enabled=False)
x = data(4, 3).to(device)
for _ in range(2):
    opt.zero_grad()
    with torch.autocast(device_type=device.type, enabled=False):
        loss = m(x).pow(2).mean()
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
report(w=m.weight.cpu(), loss=loss.item(), scale=scaler.get_scale(), enabled=scaler.is_enabled())
