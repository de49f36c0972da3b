import torch
import torch.nn.functional as F


def top_k_top_p_filtering(logits, top_k=0, top_p=1.0, filter_value=-float("Inf"), min_tokens_to_keep=1):
    if top_k > 0:
        top_k = min(max(top_k, min_tokens_to_keep), logits.size(-1))
        indices_to_remove = logits < torch.topk(logits, top_k)[0][..., -1, None]
        logits[indices_to_remove] = filter_value
    if top_p < 1.0:
        sorted_logits, sorted_indices = torch.sort(logits, descending=True)
        cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
        sorted_indices_to_remove = cumulative_probs > top_p
        if min_tokens_to_keep > 1:
            sorted_indices_to_remove[..., :min_tokens_to_keep] = 0
        sorted_indices_to_remove[..., 1:] = sorted_indices_to_remove[..., :-1].clone()
        sorted_indices_to_remove[..., 0] = 0
        indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
        logits[indices_to_remove] = filter_value
    return logits


logits = data(3, 10, seed=7) * 2
a = top_k_top_p_filtering(logits.clone(), top_k=4)
b = top_k_top_p_filtering(logits.clone(), top_p=0.8)
c = top_k_top_p_filtering(logits.clone(), top_k=5, top_p=0.6, min_tokens_to_keep=2)
probs = F.softmax(c / 0.7, dim=-1)
g = torch.Generator().manual_seed(123)
draw = torch.multinomial(probs, num_samples=1, generator=g)
ok = bool(torch.isfinite(c.gather(1, draw)).all())
report(a=a, b=b, c=c, probs=probs, kept=[int(x) for x in torch.isfinite(c).sum(1)], ok=ok, dshape=list(draw.shape), ddtype=draw.dtype)
