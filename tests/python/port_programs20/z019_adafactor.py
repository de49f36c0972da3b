import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)))
opt = torch.optim.Adafactor(m.parameters(), lr=0.01)
x, y = data(8, 4), data(8, 2, seed=5)
hist = []
for _ in range(5):
    opt.zero_grad()
    l = nn.functional.mse_loss(m(x), y)
    l.backward()
    opt.step()
    hist.append(l.item())
st = opt.state[m[0].weight]
report(hist=hist, w=m[0].weight, b=m[2].bias, keys=sorted(st.keys()), row=st["row_var"].shape, col=st["col_var"].shape,
       defaults=sorted(opt.defaults.keys()))
