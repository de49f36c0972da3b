import torch
import torch.nn as nn

logits = data(2, 6, 7, seed=109).requires_grad_()
labels = torch.tensor([[1, 2, 3, -100, -100, -100], [4, 5, 6, 1, 2, 0]])
shift_logits = logits[..., :-1, :].contiguous()
shift_labels = labels[..., 1:].contiguous()
loss_fct = nn.CrossEntropyLoss()
loss = loss_fct(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))
loss.backward()
per_tok = nn.functional.cross_entropy(shift_logits.transpose(1, 2), shift_labels, reduction="none")
valid = (shift_labels != -100)
ppl = torch.exp((per_tok * valid).sum() / valid.sum())
report(loss=loss, per_tok=per_tok, ppl=ppl, g=logits.grad[0, 2], g_last=logits.grad[:, -1].abs().sum(),
       sum_red=nn.functional.cross_entropy(shift_logits.reshape(-1, 7), shift_labels.reshape(-1), reduction="sum"))
