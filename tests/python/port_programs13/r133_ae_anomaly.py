import torch
import torch.nn as nn
ae = det(nn.Sequential(nn.Linear(6, 3), nn.ReLU(), nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 6)), 0, 0.3)
normal = data(40, 6) * 0.5
opt = torch.optim.Adam(ae.parameters(), lr=5e-3)
for _ in range(10):
    loss = nn.functional.mse_loss(ae(normal), normal)
    opt.zero_grad(); loss.backward(); opt.step()
with torch.no_grad():
    err = ((ae(normal) - normal) ** 2).mean(1)
    thr = torch.quantile(err, 0.95)
    thr2 = err.kthvalue(int(0.95 * len(err))).values
    test = torch.cat([data(5, 6, seed=9) * 0.5, data(5, 6, seed=10) * 3])
    terr = ((ae(test) - test) ** 2).mean(1)
    flags = terr > thr
    z = (terr - err.mean()) / err.std()
report(loss=loss, thr=thr, thr2=thr2, flags=flags, z=z, pct=torch.quantile(err, torch.tensor([0.1, 0.5]), interpolation="nearest"))
