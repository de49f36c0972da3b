import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(5, 8), nn.SiLU(), nn.Linear(8, 2)))
ema = {k: v.detach().clone() for k, v in model.state_dict().items()}
opt = torch.optim.AdamW(model.parameters(), lr=0.01)
scaler = torch.amp.GradScaler("cpu", enabled=False)
x, y = data(24, 5), ints(2, 24, seed=8)
accum, step_losses = 3, []
opt.zero_grad(set_to_none=True)
for i, (xb, yb) in enumerate(zip(x.split(4), y.split(4))):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = model(xb)
    loss = nn.functional.cross_entropy(logits.float(), yb) / accum
    scaler.scale(loss).backward()
    if (i + 1) % accum == 0:
        scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
        with torch.no_grad():
            for k, v in model.state_dict().items():
                ema[k].mul_(0.8).add_(v, alpha=0.2)
        step_losses.append(round(loss.item() * accum, 2))
report(n_steps=len(step_losses), ema_keys=sorted(ema), ema_b=ema["2.bias"].shape, grads_none=all(p.grad is None for p in model.parameters()))
