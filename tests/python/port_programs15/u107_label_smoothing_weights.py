import torch
import torch.nn as nn
import torch.nn.functional as F

logits = data(6, 4)
tgt = torch.tensor([0, 3, 1, 1, 2, -100])
w = torch.tensor([1.0, 2.0, 0.5, 1.0])
r = {}
r["ce_w"] = F.cross_entropy(logits, tgt, weight=w)
r["ce_w_ls"] = F.cross_entropy(logits, tgt, weight=w, label_smoothing=0.2)
r["ce_none"] = F.cross_entropy(logits, tgt, reduction="none")
r["ce_sum_ls"] = nn.CrossEntropyLoss(reduction="sum", label_smoothing=0.1)(logits, tgt)
r["nll_w"] = F.nll_loss(F.log_softmax(logits, 1), tgt, weight=w, reduction="mean")
probs = F.softmax(data(6, 4, seed=3), 1)
r["ce_probs"] = F.cross_entropy(logits, probs, label_smoothing=0.1)
r["ce_probs_w"] = F.cross_entropy(logits, probs, weight=w)
img = data(2, 3, 2, 2, seed=4)
seg = torch.tensor([[[0, 1], [2, -100]], [[1, 1], [0, 2]]])
r["ce_2d_w"] = F.cross_entropy(img, seg, weight=torch.tensor([0.2, 1.0, 3.0]))
r["bce_w"] = F.binary_cross_entropy_with_logits(logits, (logits > 0).float(), weight=torch.tensor([1.0, 0.5, 2.0, 1.0]),
                                                pos_weight=torch.tensor([2.0, 1.0, 1.0, 0.5]))
lg = logits.clone().requires_grad_()
F.cross_entropy(lg, tgt, weight=w, label_smoothing=0.2).backward()
r["grad"] = lg.grad[1]
r["all_ignored"] = F.cross_entropy(logits[:1], torch.tensor([-100]))
report(**r)
