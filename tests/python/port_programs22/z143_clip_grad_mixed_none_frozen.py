import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2), nn.Linear(2, 2)), seed=203)
model[0].requires_grad_(False)
x = data(5, 3, seed=204)
model[2](torch.relu(model[0](x))).pow(2).sum().backward()
grads = [p.grad is None for p in model.parameters()]
norm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
gen_norm = nn.utils.clip_grad_norm_((p for p in model.parameters()), 1e-3, norm_type="inf")
val = nn.utils.clip_grad_value_([p for p in model.parameters() if p.grad is not None], 1e-4)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
opt.step()
report(grads=grads, norm=norm, gen_norm=gen_norm, val=val, w2=model[2].weight, state_n=len(opt.state), frozen=model[0].weight,
       w3=model[3].weight)
