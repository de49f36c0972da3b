import math
import torch

def get_slopes(n_heads):
    def power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start ** i for i in range(n)]
    if math.log2(n_heads).is_integer():
        return power_of_2(n_heads)
    closest = 2 ** math.floor(math.log2(n_heads))
    return power_of_2(closest) + get_slopes(2 * closest)[0::2][: n_heads - closest]

def build_alibi_tensor(attention_mask, num_heads, dtype):
    batch_size, seq_length = attention_mask.shape
    closest_power_of_2 = 2 ** math.floor(math.log2(num_heads))
    base = torch.tensor(2 ** (-(2 ** -(math.log2(closest_power_of_2) - 3))), dtype=torch.float32)
    powers = torch.arange(1, 1 + closest_power_of_2, dtype=torch.int32)
    slopes = torch.pow(base, powers)
    if closest_power_of_2 != num_heads:
        extra_base = torch.tensor(2 ** (-(2 ** -(math.log2(2 * closest_power_of_2) - 3))), dtype=torch.float32)
        num_remaining = min(closest_power_of_2, num_heads - closest_power_of_2)
        extra_powers = torch.arange(1, 1 + 2 * num_remaining, 2, dtype=torch.int32)
        slopes = torch.cat([slopes, torch.pow(extra_base, extra_powers)], dim=0)
    arange_tensor = ((attention_mask.cumsum(dim=-1) - 1) * attention_mask)[:, None, :]
    alibi = slopes[..., None] * arange_tensor
    return alibi.reshape(batch_size * num_heads, 1, seq_length).to(dtype)

am = torch.tensor([[0, 1, 1, 1, 1], [1, 1, 1, 1, 1]])
a = build_alibi_tensor(am, 6, torch.float32)
rel = torch.arange(5)[None, :] - torch.arange(5)[:, None]
bias = torch.tensor(get_slopes(4))[:, None, None] * rel[None].float()
report(slopes6=get_slopes(6), a_shape=a.shape, a=a[[0, 5, 6, 11], 0], bias=bias[1], powers_dtype=torch.pow(torch.tensor(0.5), torch.arange(1, 3, dtype=torch.int32)).dtype)
