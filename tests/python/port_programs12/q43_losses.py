import torch
import torch.nn as nn
import torch.nn.functional as F
a = data(4, 5); b = data(4, 5, seed=3); t = ints(5, 4)
res = {}
res["sl1"] = [F.smooth_l1_loss(a, b, beta=0.5), nn.SmoothL1Loss(reduction="sum", beta=2.0)(a, b)]
res["huber"] = nn.HuberLoss(delta=0.7)(a, b)
res["kl"] = [F.kl_div(F.log_softmax(a, 1), F.softmax(b, 1), reduction="batchmean"), F.kl_div(F.log_softmax(a, 1), F.log_softmax(b, 1), reduction="sum", log_target=True)]
res["pnll"] = [nn.PoissonNLLLoss()(a, b.abs()), nn.PoissonNLLLoss(log_input=False, full=True)(a.abs() + 0.1, b.abs().round())]
res["gnll"] = [nn.GaussianNLLLoss()(a, b, a.abs() + 0.1), nn.GaussianNLLLoss(full=True, reduction="sum")(a, b, torch.ones(4, 1))]
res["mlsm"] = nn.MultiLabelSoftMarginLoss(weight=torch.arange(1.0, 6.0))(a, (b > 0).float())
res["mlm"] = nn.MultiLabelMarginLoss()(a, torch.tensor([[3, 0, -1, 1, 2], [1, 2, 3, -1, 0], [0, -1, 0, 0, 0], [4, 3, 2, 1, 0]]))
res["mm"] = [nn.MultiMarginLoss()(a, t), nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.arange(1.0, 6.0))(a, t)]
res["mr"] = nn.MarginRankingLoss(margin=0.2)(a[:, 0], b[:, 0], torch.tensor([1.0, -1.0, 1.0, -1.0]))
res["he"] = nn.HingeEmbeddingLoss(margin=0.5)(a, torch.sign(b))
res["bce"] = [F.binary_cross_entropy(torch.sigmoid(a), (b > 0).float(), weight=torch.arange(5.0)), F.binary_cross_entropy_with_logits(a, (b > 0).float(), pos_weight=torch.full((5,), 3.0), reduction="none")[0]]
res["ce"] = [F.cross_entropy(a, t, label_smoothing=0.1), F.cross_entropy(a, t, weight=torch.arange(1.0, 6.0), label_smoothing=0.2), F.cross_entropy(a, F.softmax(b, 1)), F.cross_entropy(a, F.softmax(b, 1), label_smoothing=0.3)]
res["nll"] = [F.nll_loss(F.log_softmax(a, 1), t, weight=torch.arange(1.0, 6.0)), F.nll_loss(F.log_softmax(a, 1), t, reduction="none")]
res["sm"] = nn.SoftMarginLoss()(a, torch.sign(b))
res["l1"] = nn.L1Loss(reduction="none")(a, b)[0]
res["ce_nd"] = F.cross_entropy(data(2, 3, 4, 2), ints(3, 2, 4, 2), reduction="sum")
res["cosine"] = F.cosine_similarity(a, b, dim=1)
res["tml"] = nn.TripletMarginLoss(margin=1.0, p=1)(a, b, a.flip(0))
xr = a.clone().requires_grad_()
(F.huber_loss(xr, b, delta=0.3) + F.kl_div(F.log_softmax(xr, 1), F.softmax(b, 1), reduction="batchmean")).backward()
res["g"] = xr.grad[0]
report(**res)
