import torch

r = {}
a = torch.ones(3, requires_grad=True)
b = a * 2
c = b.sigmoid()
b.add_(1)
try:
    c.sum().backward()
    r["sigmoid_after_inplace"] = "ok"
except RuntimeError as e:
    r["sigmoid_after_inplace"] = "modified by an inplace operation" in str(e)
x = torch.ones(2, requires_grad=True)
y = x.exp()
y.mul_(2)
try:
    y.sum().backward()
    r["exp_inplace"] = x.grad.tolist()
except RuntimeError:
    r["exp_inplace"] = "error"
p = torch.ones(2, 2, requires_grad=True)
q = p.clone()
q[0] = 5
q.sum().backward()
r["clone_setitem_grad"] = p.grad
s = torch.zeros(3, requires_grad=True)
t = s + 1
t.relu_()
t.sum().backward()
r["relu_inplace_grad"] = s.grad
u = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    u.mul_(3)
r["no_grad_leaf_inplace"] = u.tolist()
w = torch.ones(2, requires_grad=True)
v = w.view(2)
try:
    v.add_(1)
    r["leaf_view_inplace"] = "ok"
except RuntimeError as e:
    r["leaf_view_inplace"] = "leaf" in str(e)
e1 = torch.ones(3).expand(2, 3)
try:
    e1.add_(1)
    r["expanded_write"] = "ok"
except RuntimeError as e:
    r["expanded_write"] = "single memory location" in str(e)
dd = torch.ones(2, requires_grad=True)
z = dd * dd
z.backward(torch.ones(2), retain_graph=True)
z.backward(torch.ones(2))
r["twice"] = dd.grad
g = torch.ones(2, requires_grad=True)
h = (g * 3).detach_()
r["detach_inplace"] = [h.requires_grad, h.is_leaf]
k = torch.ones(2, requires_grad=True)
k.data.mul_(5)
r["data_mul"] = [k.tolist(), k.requires_grad]
m = torch.zeros(2)
n = m.add_(torch.ones(2, dtype=torch.float64))
r["inplace_keeps_dtype"] = str(n.dtype)
try:
    torch.zeros(2, dtype=torch.int64).add_(1.5)
    r["int_inplace_float"] = "ok"
except RuntimeError as e:
    r["int_inplace_float"] = "can't be cast" in str(e)
report(**r)
