import math
import torch


def _relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1))
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


ctx = torch.arange(12, dtype=torch.long)[:, None]
mem = torch.arange(12, dtype=torch.long)[None, :]
rel = mem - ctx
b1 = _relative_position_bucket(rel, num_buckets=16, max_distance=20)
b2 = _relative_position_bucket(rel * 7, bidirectional=False, num_buckets=8, max_distance=40)
emb = torch.nn.Embedding(16, 2)
det(emb)
vals = emb(b1).permute(2, 0, 1)
report(b1=b1, b2=b2, vals=vals[:, 0], dtype=b1.dtype)
