import torch
import torch.nn as nn

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
m = det(nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)))
m = m.to(device)
x = data(3, 2).to(device, non_blocking=True)
out = m(x).detach().cpu().numpy()
t = torch.as_tensor(out)
report(dev=str(next(m.parameters()).device.type), out=t, np_type=type(out).__name__, item=float(m(x).sum().item()),
       cuda=torch.cuda.is_available() in (True, False), count=torch.cuda.device_count() >= 0)
