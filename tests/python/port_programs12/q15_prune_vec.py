import torch
import torch.nn as nn
import torch.nn.utils.prune as prune
from torch.nn.utils import parameters_to_vector, vector_to_parameters
model = det(nn.Sequential(nn.Conv2d(1, 3, 3), nn.ReLU(), nn.Flatten(), nn.Linear(12, 4)), scale=0.5)
prune.l1_unstructured(model[0], name="weight", amount=0.3)
prune.ln_structured(model[3], name="weight", amount=0.5, n=2, dim=0)
prune.global_unstructured([(model[0], "bias"), (model[3], "bias")], pruning_method=prune.L1Unstructured, amount=2)
sparsity = [float(torch.sum(model[0].weight == 0)) / model[0].weight.nelement(), float(torch.sum(model[3].weight == 0)) / model[3].weight.nelement()]
keys = sorted(model.state_dict().keys())
x = data(2, 1, 4, 4)
out = model(x); out.sum().backward()
g0 = model[0].weight_orig.grad
prune.remove(model[0], "weight")
vec = parameters_to_vector(model.parameters())
vector_to_parameters(vec * 2, model.parameters())
m2 = det(nn.Linear(3, 2), seed=3)
for p in m2.parameters():
    p.grad = torch.ones_like(p) * 3
n_inf = torch.nn.utils.clip_grad_norm_(m2.parameters(), max_norm=1.0, norm_type=float('inf'))
torch.nn.utils.clip_grad_value_(m2.parameters(), clip_value=0.5)
gn = torch.nn.utils.get_total_norm([p.grad for p in m2.parameters()]) if hasattr(torch.nn.utils, "get_total_norm") else torch.norm(torch.stack([p.grad.norm() for p in m2.parameters()]))
report(sparsity=sparsity, keys=keys, out=out, g0=g0, nvec=vec.numel(), w=model[0].weight, n_inf=n_inf, grads=[p.grad for p in m2.parameters()], gn=gn,
       hooks=len(model[3]._forward_pre_hooks), mask=model[3].weight_mask)
