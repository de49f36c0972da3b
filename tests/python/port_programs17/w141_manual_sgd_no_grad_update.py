import torch

w = torch.tensor([[0.5], [-0.3]], requires_grad=True)
b = torch.zeros(1, requires_grad=True)
X = data(10, 2, seed=1)
y = X @ torch.tensor([[2.0], [-1.0]]) + 0.5
lr = 0.1
hist = []
for epoch in range(5):
    pred = X @ w + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    hist.append(loss.item())
w.data.clamp_(-1, 1)
report(hist=hist, w=w, b=b, leaf=w.is_leaf, rg=w.requires_grad, gz=w.grad)
