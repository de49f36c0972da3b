import torch
import torch.nn as nn
import torch.nn.functional as F

x = data(4, 3).requires_grad_()
t = torch.rand(4, 3) * 0 + torch.tensor([[0.5, 1.0, 2.0]])
var = torch.full((4, 3), 0.5, requires_grad=True)
counts = torch.tensor([[0.0, 1.0, 3.0]]).expand(4, 3)
y = torch.tensor([0, 2, 1, 2])
res = {
    "poisson": F.poisson_nll_loss(x, counts, log_input=True), "poisson_full": F.poisson_nll_loss(x.exp(), counts, log_input=False, full=True),
    "gauss": F.gaussian_nll_loss(x, t, var), "gauss_full": nn.GaussianNLLLoss(full=True, eps=1e-3)(x, t, var[:, :1]),
    "huber": F.huber_loss(x, t, delta=0.7), "sl1": F.smooth_l1_loss(x, t, beta=0.7), "soft_margin": F.soft_margin_loss(x, torch.sign(t - 1)),
    "mlm": F.multilabel_margin_loss(x, torch.tensor([[0, 2, -1], [1, -1, 0], [2, 1, 0], [-1, 0, 0]])),
    "mm": F.multi_margin_loss(x, y, p=2, margin=0.5, weight=torch.tensor([1.0, 2.0, 0.5])),
    "kl_logt": F.kl_div(F.log_softmax(x, 1), F.log_softmax(t, 1), reduction="batchmean", log_target=True),
    "mlsm": F.multilabel_soft_margin_loss(x, (t > 0.7).float()), "l1_sum": F.l1_loss(x, t, reduction="sum"),
    "bce_w": F.binary_cross_entropy(torch.sigmoid(x), (t > 0.7).float(), weight=torch.tensor([1.0, 0.5, 2.0])),
}
total = sum(res.values())
total.backward()
report(**{k: v.item() for k, v in res.items()}, gx=x.grad[0], gv=var.grad[0])
