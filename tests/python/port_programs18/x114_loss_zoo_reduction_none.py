import torch
import torch.nn as nn

p = data(4, 3, seed=1)
t = data(4, 3, seed=2)
out = {
    "l1": nn.L1Loss(reduction="none")(p, t)[0],
    "smooth": nn.SmoothL1Loss(beta=0.5)(p, t),
    "huber": nn.HuberLoss(delta=0.7, reduction="sum")(p, t),
    "mse": nn.MSELoss()(p, t),
    "bce": nn.BCELoss(weight=torch.tensor([1.0, 2.0, 0.5]))(p.sigmoid(), t.sigmoid()),
    "bcel": nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 1.0, 1.0]))(p, (t > 0).float()),
    "poisson": nn.PoissonNLLLoss()(p, t.abs()),
    "gauss": nn.GaussianNLLLoss()(p, t, torch.ones(4, 3) * 0.5),
    "margin": nn.MultiMarginLoss()(p, torch.tensor([0, 2, 1, 1])),
    "mlsm": nn.MultiLabelSoftMarginLoss()(p, (t > 0).float()),
    "hinge": nn.HingeEmbeddingLoss()(p, torch.ones(4, 3).masked_fill(t < 0, -1)),
    "soft": nn.SoftMarginLoss()(p, torch.ones(4, 3).masked_fill(t < 0, -1)),
    "kl": nn.KLDivLoss(reduction="batchmean")(p.log_softmax(-1), t.softmax(-1)),
    "rank": nn.MarginRankingLoss(0.2)(p[:, 0], p[:, 1], torch.tensor([1.0, -1.0, 1.0, -1.0])),
}
report(**out)
