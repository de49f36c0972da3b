import torch
import torch.nn as nn
import torch.nn.functional as F
T, N, C, S = 8, 2, 5, 3
logits = data(T, N, C, scale=0.8).requires_grad_()
log_probs = logits.log_softmax(2)
targets = torch.tensor([[1, 2, 2], [3, 1, 0]])
input_lengths = torch.tensor([8, 6]); target_lengths = torch.tensor([3, 2])
ctc = nn.CTCLoss(blank=0, reduction="mean", zero_infinity=True)
loss = ctc(log_probs, targets, input_lengths, target_lengths)
loss.backward()
l_none = F.ctc_loss(log_probs.detach(), targets, input_lengths, target_lengths, reduction="none")
l_cat = F.ctc_loss(log_probs.detach(), torch.tensor([1, 2, 2, 3, 1]), input_lengths, target_lengths, reduction="sum")
best = log_probs.argmax(-1).T
decoded = []
for seq in best:
    out = torch.unique_consecutive(seq)
    decoded.append(out[out != 0].tolist())
train = data(20, 3); tl = (train[:, 0] > 0).long() + (train[:, 1] > 0).long()
test = data(5, 3, seed=9)
d = torch.cdist(test, train)
knn_d, knn_i = d.topk(4, largest=False)
votes = tl[knn_i]
pred = torch.mode(votes, dim=1).values
w = 1.0 / (knn_d + 1e-8)
wvotes = torch.zeros(5, 3).scatter_add_(1, votes, w)
oh = F.one_hot(votes, num_classes=3).sum(1)
report(loss=loss, grad=logits.grad[:, 0].sum(-1), g=logits.grad[0], l_none=l_none, l_cat=l_cat, decoded=decoded, knn_i=knn_i, pred=pred, wpred=wvotes.argmax(1), oh=oh)
