import torch
import torch.nn.functional as F
def top_k_top_p_filtering(logits, top_k=0, top_p=1.0, filter_value=-float("Inf")):
    top_k = min(top_k, logits.size(-1))
    if top_k > 0:
        indices_to_remove = logits < torch.topk(logits, top_k)[0][..., -1, None]
        logits[indices_to_remove] = filter_value
    if top_p < 1.0:
        sorted_logits, sorted_indices = torch.sort(logits, descending=True)
        cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
        sorted_indices_to_remove = cumulative_probs > top_p
        sorted_indices_to_remove[..., 1:] = sorted_indices_to_remove[..., :-1].clone()
        sorted_indices_to_remove[..., 0] = 0
        indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
        logits = logits.masked_fill(indices_to_remove, filter_value)
    return logits
logits = data(4, 10)
a = top_k_top_p_filtering(logits.clone(), top_k=3)
b = top_k_top_p_filtering(logits.clone(), top_p=0.7)
c = top_k_top_p_filtering(logits.clone(), top_k=5, top_p=0.8)
probs = F.softmax(c / 0.7, dim=-1)
g = torch.Generator().manual_seed(0)
s = torch.multinomial(probs, num_samples=2, generator=g)
valid = torch.gather(torch.isfinite(c), 1, s).all()
temp = F.softmax(logits / torch.tensor([0.5, 1.0, 2.0, 4.0]).unsqueeze(1), -1)
ent = -(temp * temp.log()).sum(-1)
report(a=a, b=b, c=c, kept=torch.isfinite(c).sum(dim=1), valid=valid, s_shape=s.shape, s_dtype=s.dtype, ent=ent, probs=probs)
