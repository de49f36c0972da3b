import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)), seed=1)
ref = det(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)), seed=1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt_ref = torch.optim.SGD(ref.parameters(), lr=0.1)
x, y = data(8, 4, seed=2), data(8, 1, seed=3)
accum = 4
opt.zero_grad()
for i, (xb, yb) in enumerate(zip(x.chunk(4), y.chunk(4))):
    loss = nn.functional.mse_loss(model(xb), yb) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
opt_ref.zero_grad()
nn.functional.mse_loss(ref(x), y).backward()
torch.nn.utils.clip_grad_norm_(ref.parameters(), 1.0)
opt_ref.step()
report(same=all(torch.allclose(a, b, atol=1e-6) for a, b in zip(model.parameters(), ref.parameters())),
       grad_none=model[0].weight.grad is None, w=model[2].weight.detach())
