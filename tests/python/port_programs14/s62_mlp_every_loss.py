import torch
import torch.nn as nn
import torch.nn.functional as F

x = data(6, 4)
t = data(6, 4, seed=3)
cls = ints(4, 6)
bin_t = (data(6, 4, seed=5) > 0).float()
out = {
    "mse": nn.MSELoss(reduction="sum")(x, t), "l1": F.l1_loss(x, t, reduction="none").mean(0),
    "huber": F.huber_loss(x, t, delta=0.3), "sl1": F.smooth_l1_loss(x, t, beta=2.0),
    "bce_logits_w": F.binary_cross_entropy_with_logits(x, bin_t, weight=torch.tensor([1.0, 2.0, 1.0, 0.5])),
    "multilabel_margin_soft": F.multilabel_soft_margin_loss(x, bin_t), "kl": F.kl_div(F.log_softmax(x, 1), F.softmax(t, 1), reduction="batchmean"),
    "kl_logt": F.kl_div(F.log_softmax(x, 1), F.log_softmax(t, 1), reduction="sum", log_target=True),
    "nll_w": F.nll_loss(F.log_softmax(x, 1), cls, weight=torch.tensor([1.0, 0.5, 2.0, 1.0])),
    "margin": F.multi_margin_loss(x, cls, p=1, margin=0.5), "cos_emb": F.cosine_embedding_loss(x, t, torch.tensor([1, -1, 1, -1, 1, 1])),
    "hinge": F.hinge_embedding_loss(x, torch.ones_like(x).masked_fill(bin_t > 0, -1), margin=0.5),
    "rank": F.margin_ranking_loss(x[:, 0], t[:, 0], torch.tensor([1.0, -1, 1, -1, 1, -1]), margin=0.1),
    "triplet": F.triplet_margin_loss(x, t, t.flip(0), margin=1.0, p=2, swap=True),
    "poisson": F.poisson_nll_loss(x, t.abs(), log_input=True, full=True), "gauss": F.gaussian_nll_loss(x, t, torch.ones(6, 4) * 0.5),
    "soft_margin": F.soft_margin_loss(x, torch.sign(t)), "ce_probs": F.cross_entropy(x, F.softmax(t, 1)),
    "ce_ls": F.cross_entropy(x, cls, label_smoothing=0.2, reduction="sum"),
}
report(**out)
