import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2)))
x = data(6, 4, scale=3.0)
loss = m(x).pow(2).sum()
loss.backward()
grads = [p.grad.clone() for p in m.parameters()]
total = nn.utils.clip_grad_norm_(m.parameters(), max_norm=1.0)
after = torch.sqrt(sum(p.grad.pow(2).sum() for p in m.parameters()))
for p, g in zip(m.parameters(), grads):
    p.grad = g.clone()
tinf = nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5, norm_type=float("inf"))
maxabs = max(p.grad.abs().max() for p in m.parameters())
for p, g in zip(m.parameters(), grads):
    p.grad = g.clone()
nn.utils.clip_grad_value_(m.parameters(), clip_value=0.1)
vals = [p.grad.abs().max().item() for p in m.parameters()]
t1 = nn.utils.clip_grad_norm_(m.parameters(), 100.0, norm_type=1)
vec = nn.utils.parameters_to_vector(m.parameters())
nn.utils.vector_to_parameters(vec * 0 + 1, m.parameters())
p = torch.ones(3, requires_grad=True)
p.grad = torch.tensor([3.0, 4.0, 0.0])
t2 = torch.nn.utils.clip_grad_norm_(p, 1.0)
report(total=total, after=after, tinf=tinf, maxabs=maxabs, vals=vals, t1=t1, vec_shape=vec.shape, ones=m[0].weight.sum(),
       t2=t2, pg=p.grad)
