# TOL 2e-2
import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 10)
x = data(6, 8); y = ints(4, 6)
dtypes, losses = [], []
for it in range(3):
    opt.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        out = model(x)
        loss = nn.functional.cross_entropy(out, y)
    dtypes.append([str(out.dtype), str(loss.dtype)])
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
    losses.append(loss.item())
with torch.autocast("cpu", enabled=False):
    out32 = model(x)
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    mm = torch.mm(x, x.t()); s = torch.softmax(mm, -1); e = x.exp(); ad = x + 1
report(dtypes=[[d.replace("meshflow", "torch") for d in p] for p in dtypes], losses=losses, scale=scaler.get_scale(), out32=out32.dtype,
       mm=mm.dtype, s=s.dtype, e=e.dtype, ad=ad.dtype, w=model[0].weight.dtype, gdt=model[0].weight.grad.dtype)
