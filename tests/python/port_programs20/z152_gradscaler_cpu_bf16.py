import torch
import torch.nn as nn
# TOL 2e-2

m = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=256.0, growth_interval=2)
x, y = data(6, 4), ints(2, 6)
scales = []
for _ in range(4):
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss = nn.functional.cross_entropy(m(x), y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    nn.utils.clip_grad_norm_(m.parameters(), 5.0)
    scaler.step(opt)
    scaler.update()
    scales.append(scaler.get_scale())
report(scales=scales, loss=loss.float().item(), w=m[2].weight, sd=sorted(scaler.state_dict().keys()))
