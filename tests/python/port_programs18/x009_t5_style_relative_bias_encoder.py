import math
import torch
import torch.nn as nn


def rel_bucket(rel, bidirectional=True, num_buckets=8, max_distance=16):
    ret = 0
    n = -rel
    if bidirectional:
        num_buckets //= 2
        ret += (n < 0).to(torch.long) * num_buckets
        n = torch.abs(n)
    else:
        n = torch.max(n, torch.zeros_like(n))
    max_exact = num_buckets // 2
    is_small = n < max_exact
    val_if_large = max_exact + (torch.log(n.float() / max_exact) / math.log(max_distance / max_exact)
                                * (num_buckets - max_exact)).to(torch.long)
    val_if_large = torch.min(val_if_large, torch.full_like(val_if_large, num_buckets - 1))
    return ret + torch.where(is_small, n, val_if_large)


T = 6
ctx = torch.arange(T)[:, None]
mem = torch.arange(T)[None, :]
buckets = rel_bucket(mem - ctx)
bias = det(nn.Embedding(8, 2), seed=4)
values = bias(buckets).permute(2, 0, 1).unsqueeze(0)
uni = rel_bucket(mem - ctx, bidirectional=False)
report(buckets=buckets, uni=uni, values=values[0, 1])
