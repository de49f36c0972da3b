import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
x = data(20, 2); y = (x[:, :1] * 2 - x[:, 1:] * 0.5).tanh()
model = det(nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 1)), 0, 0.5)
opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5, history_size=5)
hist = []
for _ in range(3):
    def closure():
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        return loss
    hist.append(opt.step(closure).item())
m2 = det(nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 1)), 1, 0.5)
out = checkpoint_sequential(m2, 2, x, use_reentrant=False)
out.sum().backward()
g1 = m2[0].weight.grad.clone(); m2.zero_grad()
m2(x).sum().backward()
g2 = m2[0].weight.grad.clone(); m2.zero_grad()
h = checkpoint(lambda t: m2[1](m2[0](t)), x, use_reentrant=False)
m2[2:](h).sum().backward()
report(hist=hist, g1=g1, same=torch.allclose(g1, g2, atol=1e-6), g3=torch.allclose(m2[0].weight.grad, g2, atol=1e-6))
