import torch
from torch.autograd.functional import hessian, jacobian

w0 = data(3, seed=1)
X = data(6, 3, seed=2)
y = (data(6, seed=3) > 0).float()


def loss_fn(w):
    return torch.nn.functional.binary_cross_entropy_with_logits(X @ w, y)


H = hessian(loss_fn, w0)
g = jacobian(loss_fn, w0)
step = torch.linalg.solve(H + 1e-3 * torch.eye(3), g)
w1 = w0 - step
jac_model = jacobian(lambda inp: torch.tanh(inp @ X.T[:, :2]), data(2, 3, seed=4))
report(H=H, g=g, w1=w1, loss0=loss_fn(w0).item(), loss1=loss_fn(w1).item(), jshape=list(jac_model.shape),
       jm=jac_model[1, 0], hs=hessian(lambda a, b: (a * b).sum() + (a ** 2).sum(), (w0, w0))[0][1])
