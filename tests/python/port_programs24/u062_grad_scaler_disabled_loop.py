import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 4), nn.GELU(), nn.Linear(4, 1)))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
scaler = torch.amp.GradScaler(enabled=False)
x, y = data(8, 4), data(8, 1, seed=5)
hist = []
for epoch in range(4):
    opt.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=True):
        pred = model(x)
    loss = nn.functional.mse_loss(pred.float(), y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
    hist.append(round(loss.item(), 2))
state = scaler.state_dict()
report(hist_len=len(hist), state=state, pred_dtype=pred.dtype, is_enabled=scaler.is_enabled(), scaled_is_same=scaler.scale(loss) is loss,
       w_dtype=model[0].weight.dtype, loss_dtype=loss.dtype, finite=bool(torch.isfinite(gn)))
