import torch
import torch.nn.functional as F

logits = data(2, 10, seed=1)
temperature = 0.7
l = logits / temperature
v, _ = torch.topk(l, 3)
l_topk = l.masked_fill(l < v[:, [-1]], float("-inf"))
probs = F.softmax(l_topk, dim=-1)
sorted_logits, sorted_idx = torch.sort(l, descending=True)
cum = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
remove = cum > 0.8
remove[..., 1:] = remove[..., :-1].clone()
remove[..., 0] = False
to_remove = remove.scatter(1, sorted_idx, remove)
l_topp = l.masked_fill(to_remove, float("-inf"))
torch.manual_seed(0)
nxt = torch.multinomial(probs, num_samples=1)
report(probs=probs, kept=(~to_remove).sum(1), topp=F.softmax(l_topp, -1), nxt_ok=bool(probs.gather(1, nxt).gt(0).all()),
       greedy=l.argmax(-1), nshape=list(nxt.shape))
