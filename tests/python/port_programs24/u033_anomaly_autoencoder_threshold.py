import torch
import torch.nn as nn

normal = torch.sin(torch.linspace(0, 12, 200)) + 0.05 * data(200)
wins = normal.unfold(0, 10, 2)
anom = wins[-5:].clone()
anom[:, 4] += 3.0
ae = det(nn.Sequential(nn.Linear(10, 4), nn.Tanh(), nn.Linear(4, 10)))
opt = torch.optim.Adam(ae.parameters(), lr=0.02)
for epoch in range(40):
    rec = ae(wins)
    loss = ((rec - wins) ** 2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
with torch.no_grad():
    err_n = ((ae(wins) - wins) ** 2).mean(1)
    err_a = ((ae(anom) - anom) ** 2).mean(1)
thr = err_n.mean() + 3 * err_n.std()
flags = torch.cat([err_n, err_a]) > thr
report(loss=loss.item(), thr=thr.item(), n_flagged_normal=flags[:len(err_n)].sum().item(), flagged_anom=flags[len(err_n):],
       kth=torch.kthvalue(err_n, 5).values.item(), argmax_pos=(ae(anom) - anom).abs().argmax(1))
