import torch

logits = data(2, 8, seed=4) * 2
probs = logits.softmax(-1)
top = probs.max(-1, keepdim=True).values
min_p = logits.masked_fill(probs < 0.1 * top, -float("inf"))
ent = -(probs * probs.log()).sum(-1, keepdim=True)
shifted = (-probs.log() - ent).abs()
sorted_scores, sorted_idx = torch.sort(shifted)
cum = probs.gather(-1, sorted_idx).cumsum(-1)
last = (cum < 0.8).sum(-1)
remove_sorted = sorted_scores > sorted_scores.gather(1, last.view(-1, 1))
typ = logits.masked_fill(remove_sorted.scatter(1, sorted_idx, remove_sorted), -float("inf"))
temp = torch.softmax(logits / 0.5, -1)
report(min_p=torch.isinf(min_p).sum(-1), typ=torch.isinf(typ).sum(-1), temp=temp[0], ent=ent)
