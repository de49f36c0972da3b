import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1)), seed=1)
norms = {}
handles = []
for name, p in model.named_parameters():
    handles.append(p.register_hook(lambda g, name=name: norms.__setitem__(name, g.norm().item())))
    if name.endswith("weight"):
        p.register_hook(lambda g: g.clamp(-0.05, 0.05))
acts = []
model[1].register_forward_hook(lambda m, i, o: acts.append(o.abs().mean().item()))
x, y = data(6, 3, seed=2), data(6, 1, seed=3)
loss = nn.functional.mse_loss(model(x), y)
loss.backward()
for h in handles:
    h.remove()
report(norms=norms, g=model[0].weight.grad, gb=model[0].bias.grad, acts=acts, keys=sorted(norms))
