import torch
import torch.nn.functional as F

def top_p_filter(scores, top_p, min_tokens_to_keep=1, filter_value=-float("Inf")):
    sorted_logits, sorted_indices = torch.sort(scores, descending=False)
    cumulative_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    sorted_indices_to_remove = cumulative_probs <= (1 - top_p)
    sorted_indices_to_remove[..., -min_tokens_to_keep:] = 0
    indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
    return scores.masked_fill(indices_to_remove, filter_value)

def top_p_descending(logits, p):
    sorted_logits, sorted_indices = torch.sort(logits, descending=True)
    cum = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
    remove = cum > p
    remove[..., 1:] = remove[..., :-1].clone()
    remove[..., 0] = False
    mask = torch.zeros_like(logits, dtype=torch.bool).scatter_(-1, sorted_indices, remove)
    return logits.masked_fill(mask, float("-inf"))

scores = data(3, 8, seed=5, scale=2.0)
a = top_p_filter(scores, 0.8)
b = top_p_descending(scores, 0.8)
report(a=a, b=b, kept_a=torch.isfinite(a).sum(-1), kept_b=torch.isfinite(b).sum(-1), pa=a.softmax(-1))
