import time
import torch
import torch.nn as nn

m = det(nn.Linear(4, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.05)
x, y = data(16, 4, seed=1), data(16, 1, seed=2)
smooth = None
logs = []
for step in range(6):
    t0 = time.perf_counter()
    xb, yb = x[step * 2 % 16: step * 2 % 16 + 4], y[step * 2 % 16: step * 2 % 16 + 4]
    loss = nn.functional.l1_loss(m(xb), yb)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    smooth = loss.item() if smooth is None else 0.9 * smooth + 0.1 * loss.item()
    dt = time.perf_counter() - t0
    logs.append(f"step {step:03d} | loss {loss.item():.4f} | ema {smooth:.4f} | {xb.shape[0] / max(dt, 1e-9) > 0}")
report(logs=logs, gn=torch.nn.utils.get_total_norm([p.grad for p in m.parameters()]) if hasattr(torch.nn.utils, "get_total_norm") else None)
