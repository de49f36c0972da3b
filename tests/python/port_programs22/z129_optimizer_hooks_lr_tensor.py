import torch
import torch.nn as nn

model = det(nn.Linear(3, 2), seed=194)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01, nesterov=False, maximize=True)
x = data(4, 3, seed=195)
for _ in range(3):
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()
opt2 = torch.optim.Adam(model.parameters(), lr=torch.tensor(0.01), maximize=False, weight_decay=0.1)
for _ in range(2):
    opt2.zero_grad()
    model(x).pow(2).mean().backward()
    opt2.step()
adagrad = torch.optim.Adagrad(model.parameters(), lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1)
model(x).sum().backward()
adagrad.step()
report(w=model.weight, b=model.bias, lr_type=type(opt2.param_groups[0]["lr"]).__name__, mom=opt.state[model.weight]["momentum_buffer"],
       sum=adagrad.state[model.bias]["sum"])
