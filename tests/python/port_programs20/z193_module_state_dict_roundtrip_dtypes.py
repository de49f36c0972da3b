import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))).double()
torch.save(m.state_dict(), "d.pt")
f = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
f.load_state_dict(torch.load("d.pt"))
h = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)).half()
h.load_state_dict(torch.load("d.pt"))
report(f=[f[0].weight.dtype, f[1].num_batches_tracked.dtype], fw=f[0].weight, h=h[0].weight.dtype, hw=h[0].weight.float(),
       saved=torch.load("d.pt")["0.weight"].dtype)
