import torch
import torch.nn as nn

m = det(nn.Linear(2, 1), seed=1)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)
x, y = data(4, 2, seed=2), data(4, 1, seed=3)


def closure():
    opt.zero_grad()
    loss = nn.functional.mse_loss(m(x), y)
    loss.backward()
    return loss


losses = [opt.step(closure).item() for _ in range(3)]
opt.zero_grad(set_to_none=False)
zeroed = m.weight.grad.clone()
opt.zero_grad()
report(losses=losses, zeroed=zeroed, none=m.weight.grad is None, buf=opt.state[m.weight]["momentum_buffer"], w=m.weight.detach())
