import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)))
x, y = data(6, 8), ints(4, 6, seed=3)
scaler = torch.amp.GradScaler("cpu", enabled=False)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
dtypes = []
for step in range(3):
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        out = model(x)
        loss = nn.functional.cross_entropy(out, y)
        dtypes.append((str(out.dtype), str(loss.dtype)))
    opt.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
with torch.autocast("cpu", dtype=torch.bfloat16):
    a = torch.mm(x, x.t())
    s = torch.softmax(a, -1)
    e = x.exp()
    with torch.autocast("cpu", enabled=False):
        f = torch.mm(x, x.t())
report(dtypes=dtypes, loss=loss.float().item(), w_dtype=model[0].weight.dtype, grad_dtype=model[0].weight.grad.dtype,
       scale=scaler.get_scale() if scaler.is_enabled() else 1.0, enabled=scaler.is_enabled(), a=a.dtype, s=s.dtype, e=e.dtype, f=f.dtype,
       close=torch.allclose(a.float(), f, rtol=0.05, atol=0.2), is_on=torch.is_autocast_enabled("cpu") if False else None)
