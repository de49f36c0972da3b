import math
import torch
import torch.nn as nn
model = det(nn.Linear(3, 2))
x = data(4, 3) * 100
loss = model(x).pow(2).sum()
loss.backward()
before = [p.grad.clone() for p in model.parameters()]
nn.utils.clip_grad_value_(model.parameters(), clip_value=1.0)
after = [p.grad.clone() for p in model.parameters()]
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5, norm_type=2.0)
inf_norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=10.0, norm_type=float("inf"))
finite = all(torch.isfinite(p.grad).all() for p in model.parameters())
model.weight.grad[0, 0] = float("nan")
bad = any(not torch.isfinite(p.grad).all() for p in model.parameters())
try:
    nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
    err = None
except RuntimeError as e:
    err = "RuntimeError"
t = torch.tensor([1.0, float("nan"), float("inf"), -float("inf")])
vec = nn.utils.parameters_to_vector(model.parameters())
nn.utils.vector_to_parameters(torch.arange(8.0), model.parameters())
report(before=before[1], after=after[0], total=total, inf_norm=inf_norm, finite=finite, bad=bad, err=err, nan2num=torch.nan_to_num(t, nan=0.0, posinf=9.0),
       isnan=t.isnan(), isinf=t.isinf(), nansum=t[:2].nansum(), vec=vec.shape[0], w=model.weight, b=model.bias)
