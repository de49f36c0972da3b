import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

m = det(nn.Linear(4, 3))
prune.l1_unstructured(m, name="weight", amount=0.5)
names = sorted(n for n, _ in m.named_parameters())
bufs = sorted(n for n, _ in m.named_buffers())
mask = m.weight_mask.clone()
zeros = (m.weight == 0).sum().item()
is_p = prune.is_pruned(m)
prune.remove(m, "weight")
names2 = sorted(n for n, _ in m.named_parameters())
c = det(nn.Conv2d(2, 4, 3))
prune.ln_structured(c, name="weight", amount=0.5, n=2, dim=0)
ch = (c.weight.flatten(1).abs().sum(1) == 0).tolist()
m2 = det(nn.Linear(5, 2))
prune.random_unstructured(m2, name="bias", amount=1)
params = [(m, "weight"), (det(nn.Linear(3, 3)), "weight")]
l3 = params[1][0]
prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=4)
report(names=names, bufs=bufs, mask=mask, zeros=zeros, is_p=is_p, names2=names2, ch=ch, bias_zero=(m2.bias == 0).all().item(),
       g=[(m.weight == 0).sum().item(), (l3.weight == 0).sum().item()])
