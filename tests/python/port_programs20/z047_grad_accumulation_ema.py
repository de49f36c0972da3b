import copy
import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 8), nn.SiLU(), nn.Linear(8, 1)))
ema = copy.deepcopy(model)
for p in ema.parameters():
    p.requires_grad_(False)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
X, Y = data(16, 4), data(16, 1, seed=7)
accum = 4
for i in range(8):
    xb, yb = X[(i % 4) * 4:(i % 4) * 4 + 4], Y[(i % 4) * 4:(i % 4) * 4 + 4]
    loss = nn.functional.smooth_l1_loss(model(xb), yb) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        opt.step()
        opt.zero_grad()
        with torch.no_grad():
            for pe, pm in zip(ema.parameters(), model.parameters()):
                pe.mul_(0.9).add_(pm, alpha=0.1)
            for be, bm in zip(ema.buffers(), model.buffers()):
                be.copy_(bm)
report(w=model[0].weight.sum(), ew=ema[0].weight.sum(), grads=[p.grad for p in model.parameters()][:1], out=ema(X[:2]))
