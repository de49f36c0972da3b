import inspect
import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Embedding(10, 4), nn.LayerNorm(4), nn.Linear(4, 10)))
param_dict = {pn: p for pn, p in model.named_parameters() if p.requires_grad}
decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
optim_groups = [{"params": decay_params, "weight_decay": 0.1}, {"params": nodecay_params, "weight_decay": 0.0}]
fused_available = "fused" in inspect.signature(torch.optim.AdamW).parameters
use_fused = fused_available and torch.cuda.is_available()
extra_args = dict(fused=True) if use_fused else dict()
opt = torch.optim.AdamW(optim_groups, lr=6e-4, betas=(0.9, 0.95), **extra_args)
ids = ints(10, 2, 5)
for _ in range(3):
    logits = model(ids)
    loss = nn.functional.cross_entropy(logits.view(-1, 10), ids.view(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
report(fused_available=fused_available, n=[len(decay_params), len(nodecay_params)], loss=loss.item(), norm=norm, w=model[2].weight.sum())
