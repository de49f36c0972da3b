import torch
import torch.nn as nn
model = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)))
opts = {p: torch.optim.SGD([p], lr=0.1) for p in model.parameters()}
order = []
def hook(p):
    order.append(tuple(p.shape))
    opts[p].step()
    opts[p].zero_grad()
for p in model.parameters():
    p.register_post_accumulate_grad_hook(hook)
x, y = data(5, 3), data(5, 1, seed=3)
for _ in range(2):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
ref = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)))
o = torch.optim.SGD(ref.parameters(), lr=0.1)
for _ in range(2):
    o.zero_grad(); nn.functional.mse_loss(ref(x), y).backward(); o.step()
report(n=len(order), same=all(torch.allclose(a, b, atol=1e-6) for a, b in zip(model.parameters(), ref.parameters())), grads=[p.grad for p in model.parameters()][:1], w=model[2].weight)
