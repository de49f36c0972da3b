import torch
from torch import nn
import torch.nn.utils.prune as prune

module = det(nn.Conv2d(2, 6, 3), seed=1)
prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
m1 = module.weight_mask.clone()
channels = (module.weight.abs().sum(dim=(1, 2, 3)) == 0).tolist()
prune.l1_unstructured(module, name="weight", amount=0.25)
m2 = module.weight_mask.clone()
hook = None
for h in module._forward_pre_hooks.values():
    if h._tensor_name == "weight":
        hook = h
        break
kinds = [type(p).__name__ for p in hook] if hasattr(hook, '__iter__') else [type(hook).__name__]
report(m1_sum=m1.sum(), channels=channels, m2_sum=m2.sum(), kinds=kinds, hook=type(hook).__name__,
       sparsity=float(torch.sum(module.weight == 0)) / float(module.weight.nelement()))
