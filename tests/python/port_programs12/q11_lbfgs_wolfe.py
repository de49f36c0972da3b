import torch
import torch.nn as nn
x = data(30, 3); w_true = torch.tensor([[1.5], [-2.0], [0.5]]); y = x @ w_true + 0.3 + 0.05 * data(30, 1, seed=7)
model = det(nn.Linear(3, 1), scale=0.1)
opt = torch.optim.LBFGS(model.parameters(), lr=1, max_iter=20, history_size=5, line_search_fn="strong_wolfe")
crit = nn.MSELoss()
calls = [0]
def closure():
    opt.zero_grad()
    loss = crit(model(x), y)
    loss.backward()
    calls[0] += 1
    return loss
losses = []
for i in range(3):
    l = opt.step(closure); losses.append(l.item())
st = opt.state_dict()
m2 = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)), seed=3, scale=0.5)
o2 = torch.optim.LBFGS(m2.parameters(), lr=0.5, max_iter=5)
def c2():
    o2.zero_grad(); l = crit(m2(x), y); l.backward(); return l
l2 = [o2.step(c2).item() for _ in range(4)]
report(losses=losses, w=model.weight, b=model.bias, calls=calls[0] > 3, n_iter=st["state"][0]["n_iter"], l2=l2, keys=sorted(st["param_groups"][0].keys()))
