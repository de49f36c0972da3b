import torch
import torch.nn as nn
import torch.nn.functional as F

a, p, n = data(5, 6, seed=1), data(5, 6, seed=2), data(5, 6, seed=3)
r = {}
r["triplet"] = nn.TripletMarginLoss(margin=1.0, p=2)(a, p, n)
r["triplet_swap"] = F.triplet_margin_loss(a, p, n, margin=0.5, swap=True, reduction="none")
r["triplet_dist"] = nn.TripletMarginWithDistanceLoss(distance_function=lambda x, y: 1 - F.cosine_similarity(x, y),
                                                     margin=0.3)(a, p, n)
y = torch.tensor([1, -1, 1, -1, 1])
r["cos_emb"] = nn.CosineEmbeddingLoss(margin=0.2)(a, p, y)
r["margin_rank"] = nn.MarginRankingLoss(margin=0.1)(a[:, 0], p[:, 0], y.float())
r["hinge_emb"] = nn.HingeEmbeddingLoss(margin=1.5)(a.norm(dim=1), y.float())
r["soft_margin"] = nn.SoftMarginLoss()(a[:, 0], y.float())
r["multilabel_margin"] = nn.MultiLabelMarginLoss()(a[:2, :4], torch.tensor([[3, 0, -1, 1], [1, 2, 3, -1]]))
r["multilabel_soft"] = nn.MultiLabelSoftMarginLoss()(a, (p > 0).float())
r["multi_margin"] = nn.MultiMarginLoss(p=1, margin=1.0)(a, torch.tensor([0, 2, 5, 1, 3]))
r["poisson"] = nn.PoissonNLLLoss(log_input=True)(a, p.abs())
r["gauss"] = nn.GaussianNLLLoss()(a, p, n.abs() + 0.1)
r["huber"] = nn.HuberLoss(delta=0.5)(a, p)
r["smooth_l1_beta"] = F.smooth_l1_loss(a, p, beta=0.3)
r["l1_sum"] = F.l1_loss(a, p, reduction="sum")
logp = F.log_softmax(data(7, 2, 5, seed=9), dim=2)
targets = torch.tensor([[1, 2, 2], [3, 4, 1]])
r["ctc"] = F.ctc_loss(logp, targets, torch.tensor([7, 6]), torch.tensor([3, 2]), blank=0, reduction="mean")
r["ctc_none"] = nn.CTCLoss(zero_infinity=True, reduction="none")(logp, targets, torch.tensor([7, 6]), torch.tensor([3, 2]))
report(**r)
