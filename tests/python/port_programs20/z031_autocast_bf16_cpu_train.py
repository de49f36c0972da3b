import torch
import torch.nn as nn
# TOL 2e-2

m = det(nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3)))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x, y = data(4, 6), ints(3, 4)
dts = []
for _ in range(2):
    opt.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        out = m(x)
        loss = nn.functional.cross_entropy(out, y)
    dts.append([str(out.dtype), str(loss.dtype)])
    loss.backward()
    opt.step()
report(dts=dts, gdt=m[0].weight.grad.dtype, loss=loss.float().item(), w=m[2].bias)
