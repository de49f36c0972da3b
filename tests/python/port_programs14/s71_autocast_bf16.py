import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)))
x = data(5, 4)
y = ints(3, 5)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
scaler = torch.cuda.amp.GradScaler(enabled=False) if hasattr(torch.cuda, "amp") else None
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    out = m(x)
    loss = nn.functional.cross_entropy(out, y)
    soft = torch.softmax(out, dim=1)
    mm = x @ x.T
    s = out.sum()
dtypes = [str(out.dtype), str(loss.dtype), str(soft.dtype), str(mm.dtype), str(s.dtype)]
scaler.scale(loss).backward()
scaler.step(opt)
scaler.update()
with torch.autocast("cpu", enabled=False):
    plain = m(x)
with torch.amp.autocast("cpu", dtype=torch.bfloat16):
    again = m(x)
report(dtypes=dtypes, loss=loss.float(), plain=plain.dtype, again=again.dtype, wdt=m[0].weight.dtype, gdt=m[0].weight.grad.dtype,
       scale=scaler.get_scale() if scaler.is_enabled() else 1.0, close=torch.allclose(out.float(), plain, atol=0.1))
