# TOL 3e-2
import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(6, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 3))).to(torch.bfloat16)
x = data(8, 6).to(torch.bfloat16); y = ints(3, 8)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
losses = []
for _ in range(4):
    opt.zero_grad(); out = model(x); loss = nn.functional.cross_entropy(out.float(), y); loss.backward(); opt.step(); losses.append(loss.item())
master = det(nn.Sequential(nn.Linear(6, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 3)))
mopt = torch.optim.SGD(master.parameters(), lr=0.1)
for _ in range(3):
    mopt.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        out = master(x.float())
        l = nn.functional.cross_entropy(out, y)
    l.backward(); mopt.step()
report(losses=losses, dtypes=[str(p.dtype) for p in model.parameters()][:2], gdt=str(model[0].weight.grad.dtype), outdt=str(out.dtype), l=l.item(), ldt=str(l.dtype), w=master[0].weight.dtype == torch.float32,
       mixed=(torch.ones(2, dtype=torch.bfloat16) + torch.ones(2)).dtype == torch.float32, hb=str((torch.ones(1, dtype=torch.float16) * torch.ones(1, dtype=torch.bfloat16)).dtype))
