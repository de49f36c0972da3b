import torch

X = data(50, 2)
true_w = torch.tensor([2.0, -3.4])
y = X @ true_w + 4.2
w = torch.normal(0, 0.01, size=(2, 1)).zero_().requires_grad_(True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1
for epoch in range(20):
    for i in range(0, 50, 10):
        Xb, yb = X[i:i + 10], y[i:i + 10]
        l = ((Xb @ w).squeeze() + b - yb) ** 2 / 2
        l.sum().backward()
        with torch.no_grad():
            for p in (w, b):
                p -= lr * p.grad / 10
                p.grad.zero_()
with torch.no_grad():
    final = (((X @ w).squeeze() + b - y) ** 2).mean()
report(w=w, b=b, final=final < 1e-6)
