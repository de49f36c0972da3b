import torch
import torch.nn as nn
import torch.nn.functional as F

x = data(4, 5, seed=1)
t = torch.tensor([1, 0, 4, 2])
p = torch.sigmoid(data(4, 5, seed=2))
y = (data(4, 5, seed=3) > 0).float()
r = {}
for red in ("mean", "sum", "none"):
    r["nll_" + red] = F.nll_loss(F.log_softmax(x, 1), t, reduction=red, weight=torch.tensor([1.0, 2.0, 1.0, 0.5, 1.0]))
    r["kl_" + red if red != "mean" else "kl_bm"] = F.kl_div(F.log_softmax(x, 1), F.softmax(p, 1), reduction=red if red != "mean" else "batchmean")
r["bce"] = F.binary_cross_entropy(p, y, weight=torch.tensor([1.0, 2.0, 1.0, 1.0, 0.5]))
r["mlsm"] = F.multilabel_soft_margin_loss(x, y)
r["mm"] = F.multi_margin_loss(x, t, p=2, margin=0.5)
r["cos"] = F.cosine_embedding_loss(x, p, torch.tensor([1, -1, 1, -1]), margin=0.2)
r["hinge"] = F.hinge_embedding_loss(x, torch.tensor([1, -1, 1, -1]).float()[:, None].expand(4, 5))
r["poisson"] = F.poisson_nll_loss(x, p, log_input=True)
r["gauss"] = F.gaussian_nll_loss(x, y, p + 0.1, full=True)
r["margin"] = F.margin_ranking_loss(x[:, 0], x[:, 1], torch.tensor([1.0, -1.0, 1.0, 1.0]))
r["triplet"] = F.triplet_margin_loss(x, p, y, margin=0.3, swap=True)
r["soft"] = F.soft_margin_loss(x, y * 2 - 1)
r["l1"] = nn.L1Loss(reduction="sum")(x, p)
r["ce_probs"] = F.cross_entropy(x, F.softmax(p, 1))
report(**r)
