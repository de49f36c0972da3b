import torch
import torch.nn as nn
import torch.nn.functional as F
logits = data(6, 4)
y = torch.tensor([0, 1, 2, 3, 1, -100])
w = torch.tensor([1.0, 2.0, 0.5, 1.0])
res = {
    "ls": F.cross_entropy(logits, y, label_smoothing=0.1),
    "ls_w": F.cross_entropy(logits, y, weight=w, label_smoothing=0.2),
    "w": nn.CrossEntropyLoss(weight=w)(logits, y),
    "none": F.cross_entropy(logits, y, reduction="none"),
    "sum_w": F.cross_entropy(logits, y, weight=w, reduction="sum"),
    "probs": F.cross_entropy(logits, F.softmax(data(6, 4, seed=9), 1)),
    "probs_ls": F.cross_entropy(logits, F.softmax(data(6, 4, seed=9), 1), label_smoothing=0.1),
    "nll_w": F.nll_loss(F.log_softmax(logits, 1), y, weight=w),
    "seg": F.cross_entropy(data(2, 3, 4, 4), ints(3, 2, 4, 4), weight=torch.tensor([0.2, 1.0, 3.0])),
    "ignore": F.cross_entropy(logits, torch.tensor([1, 1, 1, 3, 1, 1]), ignore_index=1),
}
def ls_manual(logits, y, eps=0.1):
    n = logits.size(-1)
    lp = F.log_softmax(logits, -1)
    return ((1 - eps) * F.nll_loss(lp, y) + eps * (-lp.mean(-1)).mean())
res["manual"] = ls_manual(logits[:5], y[:5])
res["ls5"] = F.cross_entropy(logits[:5], y[:5], label_smoothing=0.1)
report(**res)
