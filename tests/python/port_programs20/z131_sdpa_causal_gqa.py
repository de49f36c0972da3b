import torch
import torch.nn.functional as F

q = data(1, 4, 3, 2)
k = data(1, 2, 3, 2, seed=3)
v = data(1, 2, 3, 2, seed=4)
a = F.scaled_dot_product_attention(q, k.repeat_interleave(2, 1), v.repeat_interleave(2, 1), is_causal=True)
b = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
c = F.scaled_dot_product_attention(q, k.repeat_interleave(2, 1), v.repeat_interleave(2, 1), scale=0.3)
mask = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])
d = F.scaled_dot_product_attention(q[:, :2], k, v, attn_mask=mask)
report(a=a, same=torch.allclose(a, b, atol=1e-6), c=c, d=d)
