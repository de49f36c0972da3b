import math
import torch


def get_slopes(n):
    def pow2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        return [start * start ** i for i in range(n)]
    if math.log2(n).is_integer():
        return pow2(n)
    c = 2 ** math.floor(math.log2(n))
    return pow2(c) + get_slopes(2 * c)[0::2][: n - c]


H, T = 6, 5
slopes = torch.tensor(get_slopes(H))
rel = torch.arange(T)[None, :] - torch.arange(T)[:, None]
bias = slopes[:, None, None] * rel[None].float()
mask = torch.triu(torch.full((T, T), float("-inf")), diagonal=1)
s = data(H, T, T, seed=2) + bias + mask
p = s.softmax(-1)
report(slopes=slopes, bias=bias[1], p=p[5], rowsum=p.sum(-1))
