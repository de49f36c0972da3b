import torch
X = data(30, 3); true_w = torch.tensor([[2.0], [-3.4], [1.5]]); true_b = 4.2
y = X @ true_w + true_b + 0.01 * data(30, 1, seed=5)
Xb = torch.cat([X, torch.ones(30, 1)], dim=1)
sol = torch.linalg.lstsq(Xb, y).solution
normal = torch.linalg.solve(Xb.T @ Xb, Xb.T @ y)
pinv = torch.linalg.pinv(Xb) @ y
w = torch.zeros(3, 1, requires_grad=True); b = torch.zeros(1, requires_grad=True)
lr = 0.1
for epoch in range(50):
    l = ((X @ w + b - y) ** 2 / 2).mean()
    l.backward()
    with torch.no_grad():
        w -= lr * w.grad; b -= lr * b.grad
        w.grad.zero_(); b.grad.zero_()
def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]
w2 = torch.zeros(3, 1, requires_grad=True)
for xb, yb in data_iter(7, X, y):
    loss = torch.nn.functional.mse_loss(xb @ w2, yb)
    grad_w, = torch.autograd.grad(loss, w2)
    w2 = (w2 - 0.5 * grad_w).detach().requires_grad_()
q, r = torch.linalg.qr(Xb)
U, S, Vh = torch.linalg.svd(Xb, full_matrices=False)
ev = torch.linalg.eigvalsh(Xb.T @ Xb)
# TOL 1e-3
report(sol=sol, normal=normal, pinv=pinv, w=w, b=b, l=l.item(), w2=w2, r=r.abs(), S=S, ev=ev, det=torch.linalg.det(Xb.T @ Xb), inv=torch.linalg.inv(Xb.T @ Xb)[0],
       chol=torch.linalg.cholesky(Xb.T @ Xb)[1], cond=torch.linalg.cond(Xb))
