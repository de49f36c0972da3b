import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)), seed=1)
x = data(3, 8, seed=2)
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    out = model(x)
    loss = out.float().pow(2).mean()
    s = torch.softmax(out, dim=1)
dtypes = [out.dtype, loss.dtype, s.dtype]
loss.backward()
scaler = torch.amp.GradScaler("cpu", enabled=False)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler.step(opt)
scaler.update()
with torch.autocast(device_type="cpu", enabled=False):
    full = model(x)
report(dtypes=dtypes, out=out.float(), gdtype=model[0].weight.grad.dtype, full_dtype=full.dtype, enabled=scaler.is_enabled(),
       scale=scaler.get_scale(), w=model[2].bias, close=torch.allclose(out.float(), full, atol=0.05, rtol=0.02))
