import math
import torch
import torch.nn.functional as F


def naive(q, k, v, mask=None, causal=False, scale=None):
    s = scale if scale is not None else 1 / math.sqrt(q.size(-1))
    att = q @ k.transpose(-2, -1) * s
    if causal:
        L, S = q.size(-2), k.size(-2)
        att = att.masked_fill(torch.ones(L, S, dtype=torch.bool).tril().logical_not(), float("-inf"))
    if mask is not None:
        att = att.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else att + mask
    return att.softmax(-1) @ v


q, k, v = data(2, 3, 4, 8, seed=1), data(2, 3, 6, 8, seed=2), data(2, 3, 6, 5, seed=3)
bmask = data(4, 6, seed=4) > -0.5
bmask[:, 0] = True
fmask = data(1, 1, 4, 6, seed=5)
r = {}
r["plain"] = (F.scaled_dot_product_attention(q, k, v) - naive(q, k, v)).abs().max().item() < 1e-5
r["causal"] = F.scaled_dot_product_attention(q, k, v, is_causal=True)[0, 0, 1]
r["causal_ok"] = torch.allclose(F.scaled_dot_product_attention(q, k, v, is_causal=True), naive(q, k, v, causal=True), atol=1e-5)
r["bool"] = torch.allclose(F.scaled_dot_product_attention(q, k, v, attn_mask=bmask), naive(q, k, v, bmask), atol=1e-5)
r["float"] = F.scaled_dot_product_attention(q, k, v, attn_mask=fmask)[1, 2, 3]
r["scale"] = F.scaled_dot_product_attention(q, k, v, scale=0.5)[0, 1, 0]
q.requires_grad_(True)
F.scaled_dot_product_attention(q, k, v, attn_mask=bmask).sum().backward()
r["qgrad"] = q.grad[0, 0, 0]
report(**r)
