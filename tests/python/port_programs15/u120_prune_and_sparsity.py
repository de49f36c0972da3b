import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

model = det(nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 3)))
prune.l1_unstructured(model[0], name="weight", amount=0.4)
names = sorted(n for n, _ in model[0].named_parameters())
bufs = sorted(n for n, _ in model[0].named_buffers())
sparsity = float((model[0].weight == 0).sum()) / model[0].weight.nelement()
prune.ln_structured(model[2], name="weight", amount=1, n=2, dim=0)
rows_zero = (model[2].weight.abs().sum(1) == 0).sum().item()
prune.global_unstructured([(model[0], "bias"), (model[2], "bias")], pruning_method=prune.L1Unstructured, amount=2)
x = data(4, 6)
y = model(x)
y.sum().backward()
g = model[0].weight_orig.grad
prune.remove(model[0], "weight")
after = sorted(n for n, _ in model[0].named_parameters())
report(names=names, bufs=bufs, sparsity=sparsity, rows_zero=rows_zero, y=y[0], g_masked=(g[model[0].weight == 0] == 0).all().item(),
       after=after, is_pruned=prune.is_pruned(model), bias_zero=int((model[0].bias == 0).sum() + (model[2].bias == 0).sum()))
