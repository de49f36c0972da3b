import torch
import torch.nn as nn

m = det(nn.Linear(4, 2)).to(torch.bfloat16)
x = data(3, 4, seed=1).to(torch.bfloat16)
y = m(x)
loss = y.float().pow(2).mean()
loss.backward()
master = [p.detach().float().clone() for p in m.parameters()]
for mp, p in zip(master, m.parameters()):
    mp -= 0.1 * p.grad.float()
    p.data.copy_(mp)
report(y=y, dt=y.dtype, loss=loss, gdt=m.weight.grad.dtype, w=m.weight, master=master[0])
