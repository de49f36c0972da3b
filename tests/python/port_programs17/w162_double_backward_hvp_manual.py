import torch

w = data(3, seed=1).requires_grad_()
X = data(6, 3, seed=2)
y = (data(6, seed=3) > 0).float()


def loss_fn(w):
    return torch.nn.functional.binary_cross_entropy_with_logits(X @ w, y)


loss = loss_fn(w)
(g,) = torch.autograd.grad(loss, w, create_graph=True)
v = torch.tensor([1.0, 0.0, -1.0])
(hv,) = torch.autograd.grad(g @ v, w, retain_graph=True)
H = torch.stack([torch.autograd.grad(g[i], w, retain_graph=True)[0] for i in range(3)])
p = torch.sigmoid(X @ w).detach()
Href = X.T @ torch.diag(p * (1 - p)) @ X / 6
newton = w.detach() - torch.linalg.solve(H, g.detach())
report(g=g, hv=hv, H=H, same=torch.allclose(H, Href, atol=1e-6), newton=newton, lnew=loss_fn(newton))
