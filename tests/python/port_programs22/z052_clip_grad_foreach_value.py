import torch
import torch.nn as nn

def grads(seed):
    m = det(nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 3)), seed=seed)
    nn.functional.cross_entropy(m(data(4, 3, seed=63, scale=3.0)), torch.tensor([0, 1, 2, 1])).backward()
    return m

a, b = grads(64), grads(64)
ta = nn.utils.clip_grad_norm_(a.parameters(), 0.1, foreach=True)
tb = nn.utils.clip_grad_norm_(b.parameters(), 0.1, foreach=False)
c = grads(64)
nn.utils.clip_grad_value_(c.parameters(), clip_value=0.05)
d = grads(64)
t2 = nn.utils.clip_grad_norm_(d.parameters(), 0.1, norm_type=2.0)
e = grads(64)
t3 = nn.utils.clip_grad_norm_(e.parameters(), 0.01, norm_type=3)
report(ta=ta, tb=tb, same=all(torch.equal(p.grad, q.grad) for p, q in zip(a.parameters(), b.parameters())),
       a_grad=a[0].weight.grad, c_grad=c[2].weight.grad, c_max=max(p.grad.abs().max().item() for p in c.parameters()),
       t2=t2, t3=t3, e_grad=e[2].bias.grad)
