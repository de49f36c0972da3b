import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

m = det(nn.Linear(4, 3))
prune.l1_unstructured(m, name="weight", amount=0.5)
mask = m.weight_mask
sparsity = (m.weight == 0).float().mean()
names = sorted(n for n, _ in m.named_buffers())
params = sorted(n for n, _ in m.named_parameters())
prune.remove(m, "weight")
report(mask=mask, sparsity=sparsity, names=names, params=params, after=sorted(n for n, _ in m.named_parameters()),
       w=m.weight)
