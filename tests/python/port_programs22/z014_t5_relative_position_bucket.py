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
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets

q = torch.arange(20, dtype=torch.long)[:, None]
k = torch.arange(20, dtype=torch.long)[None, :]
rel = k - q
bi = _relative_position_bucket(rel, True, 32, 128)
uni = _relative_position_bucket(rel, False, 32, 128)
far = _relative_position_bucket(torch.tensor([-500, -130, -64, -9, 0, 9, 64, 130, 500]), True, 32, 128)
report(bi=bi[0], bi_last=bi[19], uni=uni[19], far=far, dtype=bi.dtype, uni_far=_relative_position_bucket(torch.tensor([-1000, -200, -40]), False, 32, 128))
