import math
import torch

def bucket(rel, bidirectional, num_buckets=32, max_distance=128):
    ret = 0
    if bidirectional:
        num_buckets //= 2
        ret += (rel > 0).to(torch.long) * num_buckets
        n = torch.abs(rel)
    else:
        n = -torch.min(rel, torch.zeros_like(rel))
    max_exact = num_buckets // 2
    is_small = n < max_exact
    val_if_large = max_exact + (torch.log(n.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)).to(torch.long)
    val_if_large = torch.min(val_if_large, torch.full_like(val_if_large, num_buckets - 1))
    return ret + torch.where(is_small, n, val_if_large)

emb = torch.nn.Embedding(32, 2)
with torch.no_grad():
    emb.weight.copy_(torch.arange(64.).view(32, 2) / 10)
ql, kl = 1, 9
ctx = torch.arange(kl - 1, kl)[:, None]
mem = torch.arange(kl)[None, :]
b = emb(bucket(mem - ctx, False)).permute(2, 0, 1)
full = emb(bucket(torch.arange(kl)[None, :] - torch.arange(kl)[:, None], False)).permute(2, 0, 1)
report(b=b, same=torch.equal(b[:, 0], full[:, -1]), log0=torch.log(torch.tensor([0.0, 1.0])), long_of_neg_inf_guard=bucket(torch.tensor([0, -1, -300]), False))
