import torch
import torch.nn as nn

model = det(nn.Linear(3, 2), seed=77)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = data(4, 3, seed=78)
model(x).sum().backward()
g_ref = model.weight.grad
opt.zero_grad(set_to_none=False)
same_obj = model.weight.grad is g_ref
zeroed = model.weight.grad
model(x).pow(2).sum().backward()
opt.step()
opt.zero_grad()
none_after = model.weight.grad is None
model.zero_grad(set_to_none=False)
still_none = model.weight.grad is None
model(x).sum().backward()
model.zero_grad(set_to_none=False)
report(same_obj=same_obj, zeroed_sum=float(zeroed.abs().sum()), none_after=none_after, still_none=still_none,
       zero_now=model.bias.grad, w=model.weight, mom=opt.state[model.weight]["momentum_buffer"])
