import torch
import torch.nn.functional as F

logits = torch.tensor([[2.0, 1.5, 0.3, -1.0, 0.0, 1.0], [0.1, 0.2, 0.3, 0.4, 3.0, -2.0]])
def filter_logits(logits, top_k=0, top_p=1.0, temperature=1.0):
    logits = logits / temperature
    if top_k > 0:
        kth = torch.topk(logits, top_k)[0][..., -1, None]
        logits = logits.masked_fill(logits < kth, -float("inf"))
    if top_p < 1.0:
        sorted_logits, sorted_idx = torch.sort(logits, descending=True)
        cum = sorted_logits.softmax(-1).cumsum(-1)
        remove = cum - sorted_logits.softmax(-1) > top_p
        logits = logits.masked_fill(remove.scatter(1, sorted_idx, remove), -float("inf"))
    return logits

f = filter_logits(logits, top_k=4, top_p=0.8, temperature=0.7)
probs = F.softmax(f, dim=-1)
g = torch.Generator().manual_seed(123)
samples = torch.multinomial(probs, 4000, replacement=True, generator=g)
allowed = torch.isfinite(f)
ok = bool(allowed.gather(1, samples).all())
freq = torch.stack([torch.bincount(s, minlength=6) for s in samples]).float() / 4000
report(f=f, probs=probs, ok=ok, freq_close=bool((freq - probs).abs().max() < 0.04), greedy=probs.argmax(-1),
       one=torch.multinomial(probs, 1, generator=torch.Generator().manual_seed(0)).shape)
