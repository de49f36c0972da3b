import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(5, 7)
        self.ln = nn.LayerNorm(7)
        self.fc2 = nn.Linear(7, 3)

    def forward(self, x):
        return self.fc2(F.gelu(self.ln(self.fc1(x))))


model = det(Net())
compiled = torch.compile(model)
x = data(4, 5)
eager = model(x)
out = compiled(x)
opt = torch.optim.SGD(compiled.parameters(), lr=0.1)
losses = []
for _ in range(3):
    opt.zero_grad()
    loss = compiled(x).pow(2).mean()
    loss.backward()
    opt.step()
    losses.append(loss.item())


@torch.compile
def f(a, b):
    return torch.sin(a) * b + a.cos()


report(out=out, close=torch.allclose(eager, out, atol=1e-6), losses=losses, f=f(x, 2.0),
       w=model.fc1.weight.sum(), keys=sorted(k.replace("_orig_mod.", "") for k in compiled.state_dict()),
       orig=compiled._orig_mod is model)
