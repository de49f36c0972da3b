import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 8, growth_interval=2)
x, y = data(6, 4), data(6, 1, seed=4)
hist, scales = [], []
for step in range(5):
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = model(x)
        loss = nn.functional.mse_loss(out.float(), y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
    hist.append(loss.dtype)
    scales.append(scaler.get_scale())
st = scaler.state_dict()
report(dts=[str(d) for d in hist], scales=scales, keys=sorted(st.keys()), enabled=scaler.is_enabled(),
       out_dtype=str(out.dtype), scaled=scaler.scale(torch.tensor(1.0)).item())
