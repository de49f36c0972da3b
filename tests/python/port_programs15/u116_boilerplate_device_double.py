import os
import random
import numpy as np
import torch
import torch.nn as nn

torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
torch.use_deterministic_algorithms(True)
os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
threads_before = torch.get_num_threads()
torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


class Reg(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 8), nn.Softplus(), nn.Linear(8, 1))

    def forward(self, x):
        return self.net(x)


model = Reg().to(device)
det(model)
x = data(10, 2).to(device=device, dtype=torch.get_default_dtype())
y = (x ** 2).sum(1, keepdim=True)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
hist = []
for _ in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    hist.append(loss.item())
threads = torch.get_num_threads()
torch.set_num_threads(threads_before)
torch.use_deterministic_algorithms(False)
report(dev=str(device), wd=str(model.net[0].weight.dtype), hist=hist, det=torch.are_deterministic_algorithms_enabled(),
       threads=threads, t=str(torch.tensor([1.0]).dtype), a=str(torch.arange(3.0).dtype),
       lin=str(torch.linspace(0, 1, 3).dtype), r=str(torch.rand(2).dtype), i=str(torch.tensor([1]).dtype))
