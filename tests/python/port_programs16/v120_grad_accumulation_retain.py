import torch

w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
for i in range(3):
    loss = (x @ w).pow(2).mean() / 3
    loss.backward()
acc = w.grad.clone()
w.grad = None
y = x @ w
z = y.sum() * 2
z.backward(retain_graph=True)
g1 = w.grad.clone()
(y ** 2).sum().backward()
g2 = w.grad.clone()
w.grad.zero_()
v = w * 3
v.backward(torch.tensor([1.0, 0.0, -1.0]))
nonleaf = w * 2
nonleaf.retain_grad()
(nonleaf ** 2).sum().backward()
report(acc=acc, g1=g1, g2=g2, g3=w.grad, nl=nonleaf.grad, req=[y.requires_grad, y.is_leaf, w.grad.requires_grad])
