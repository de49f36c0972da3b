import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(6, 12), nn.GELU(), nn.Linear(12, 3)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
X = data(16, 6)
Y = ints(3, 16)
accum = 4
losses = []
opt.zero_grad()
for i in range(16 // 2):
    xb, yb = X[2 * i: 2 * i + 2], Y[2 * i: 2 * i + 2]
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        out = model(xb)
        loss = nn.functional.cross_entropy(out, yb)
    dt = out.dtype
    (loss / accum).backward()
    if (i + 1) % accum == 0:
        total = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type=2.0)
        opt.step()
        opt.zero_grad()
        losses.append(round(total.item(), 2))
report(dt=str(dt), ldt=str(loss.dtype), n=len(losses), w=model[0].weight.dtype, gnone=model[0].weight.grad is None,
       ok=all(l > 0 for l in losses))
