import torch
import torch.nn as nn
# TOL 1e-3

model = det(nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1)))
x = data(16, 2)
y = (x[:, :1] * x[:, 1:]).tanh()
opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5)
hist = []
for i in range(4):
    def closure():
        opt.zero_grad()
        l = nn.functional.mse_loss(model(x), y)
        l.backward()
        return l
    hist.append(opt.step(closure).item())
report(hist=hist, func_evals=opt.state[next(model.parameters())]["func_evals"])
