import torch
import torch.nn as nn

p = nn.Parameter(torch.ones(3))
q = nn.Parameter(torch.ones(2))
p.grad = torch.tensor([1.0, float("nan"), 2.0])
q.grad = torch.tensor([3.0, 4.0])
errs = []
try:
    nn.utils.clip_grad_norm_([p, q], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    errs.append("nonfinite" if "non-finite" in str(e) else str(e))
p.grad = torch.tensor([1.0, 2.0, 2.0])
norms = [g.norm() for g in (p.grad, q.grad)]
total = nn.utils.get_total_norm([p.grad, q.grad], norm_type=2.0)
nn.utils.clip_grads_with_norm_([p, q], 2.0, total)
t_none = nn.utils.clip_grad_norm_([nn.Parameter(torch.ones(1))], 1.0)
report(errs=errs, total=total, pg=p.grad, qg=q.grad, t_none=t_none, norms=norms)
