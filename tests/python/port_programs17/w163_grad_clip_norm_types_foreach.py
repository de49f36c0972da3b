import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2)))
x = data(5, 3, seed=1)
res = {}
for nt in (2.0, 1.0, float("inf"), 3.0):
    m.zero_grad()
    (m(x) ** 2).sum().backward()
    res[str(nt)] = float(nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5, norm_type=nt))
    res["g" + str(nt)] = m[0].weight.grad[0].clone()
m.zero_grad()
(m(x) ** 2).sum().backward()
nn.utils.clip_grad_value_(m.parameters(), clip_value=0.3)
gn = nn.utils.get_total_norm([p.grad for p in m.parameters()]) if hasattr(nn.utils, "get_total_norm") else None
report(res=res, cv=m[1].weight.grad, v=nn.utils.parameters_to_vector(m.parameters())[:5])
