import torch
import torch.nn.functional as F

lengths = torch.tensor([3, 5, 1, 4])
max_len = int(lengths.max())
mask = torch.arange(max_len).expand(len(lengths), max_len) < lengths.unsqueeze(1)
x = data(4, 5, 3)
masked_mean = (x * mask.unsqueeze(-1)).sum(1) / lengths.unsqueeze(1)
masked_max = x.masked_fill(~mask.unsqueeze(-1), float("-inf")).max(1).values
last = x[torch.arange(4), lengths - 1]
scores = data(4, 5, seed=3)
att = F.softmax(scores.masked_fill(~mask, -1e9), dim=-1)
rev = torch.stack([torch.cat([x[i, :l].flip(0), x[i, l:]]) for i, l in enumerate(lengths.tolist())])
tok_loss = data(4, 5, seed=4).abs()
seq_loss = (tok_loss * mask).sum() / mask.sum()
order = lengths.argsort(descending=True)
inv = torch.empty_like(order)
inv[order] = torch.arange(len(order))
shift_right = F.pad(torch.tensor([[5, 6, 7], [8, 9, 0]]), (1, 0), value=1)[:, :-1]
report(mask=mask, mean=masked_mean[1], mx=masked_max[2], last=last[:, 0], att=att[2], rev=rev[0, :, 0], seq_loss=seq_loss,
       order=order, inv=inv, shift=shift_right, cum=mask.long().cumsum(1) * mask)
