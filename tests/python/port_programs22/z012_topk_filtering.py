import torch
import torch.nn.functional as F

def top_k_filter(logits, top_k, filter_value=-float("Inf")):
    top_k = min(max(top_k, 1), logits.size(-1))
    indices_to_remove = logits < torch.topk(logits, top_k)[0][..., -1, None]
    return logits.masked_fill(indices_to_remove, filter_value)

logits = data(3, 10, seed=4)
f = top_k_filter(logits, 3)
probs = F.softmax(f, dim=-1)
v, ix = torch.topk(logits, 3)
alt = torch.full_like(logits, float("-inf")).scatter(1, ix, v)
report(f=f, probs=probs, same=torch.equal(f, alt), nonzero=(probs > 0).sum(-1), isinf=torch.isinf(f).sum())
