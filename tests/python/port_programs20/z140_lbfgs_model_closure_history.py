import torch
import torch.nn as nn
# TOL 1e-3

model = det(nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1)))
x = torch.linspace(-2, 2, 25).unsqueeze(1)
y = torch.sin(x)
opt = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=20, history_size=5, tolerance_grad=1e-9, tolerance_change=1e-12,
                        line_search_fn="strong_wolfe")
hist = []


def closure():
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    return loss


for _ in range(2):
    hist.append(opt.step(closure).item())
final = closure().item()
report(first=hist[0], decreased=final < hist[0], small=final < 1e-2, keys=sorted(opt.state[next(model.parameters())].keys()))
