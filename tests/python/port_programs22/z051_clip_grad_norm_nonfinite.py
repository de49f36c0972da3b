import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2)), seed=60)
x, y = data(5, 4, seed=61), data(5, 2, seed=62)
nn.functional.mse_loss(model(x), y).backward()
before = [p.grad.norm().item() for p in model.parameters()]
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
after = torch.norm(torch.stack([p.grad.norm() for p in model.parameters()]))
inf_total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1e9, norm_type=float("inf"))
one = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1e9, norm_type=1.0)
model[0].weight.grad[0, 0] = float("nan")
raised = None
try:
    nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError:
    raised = "RuntimeError"
nan_total = nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=False)
report(before=before, total=total, after=after, inf_total=inf_total, one=one, raised=raised, nan_total=nan_total.item(),
       type=type(total).__name__, single=nn.utils.clip_grad_norm_(model[2].weight, 10.0), empty=nn.utils.clip_grad_norm_([], 1.0))
