import torch
import torch.nn.functional as F

logits = data(2, 6, 7, seed=4)
labels = torch.tensor([[3, 1, 4, 1, 5, -100], [2, 6, -100, -100, 0, 1]])
shift_logits = logits[..., :-1, :].contiguous()
shift_labels = labels[..., 1:].contiguous()
loss = F.cross_entropy(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))
loss_sum = F.cross_entropy(shift_logits.view(-1, 7), shift_labels.view(-1), reduction="sum")
per = F.cross_entropy(shift_logits.transpose(1, 2), shift_labels, reduction="none")
n = (shift_labels != -100).sum()
acc = ((shift_logits.argmax(-1) == shift_labels) & (shift_labels != -100)).sum() / n
zl = F.cross_entropy(shift_logits.view(-1, 7), shift_labels.view(-1), label_smoothing=0.1)
report(loss=loss, loss_sum=loss_sum, per=per, n=n, acc=acc, ppl=torch.exp(loss), zl=zl)
