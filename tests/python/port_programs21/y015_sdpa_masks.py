import torch
import torch.nn.functional as F

q = data(2, 2, 4, 3, seed=1)
k = data(2, 2, 5, 3, seed=2)
v = data(2, 2, 5, 3, seed=3)
bool_mask = torch.ones(4, 5, dtype=torch.bool).tril(diagonal=1)
float_mask = torch.zeros(4, 5).masked_fill(~bool_mask, float("-inf"))
o1 = F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask)
o2 = F.scaled_dot_product_attention(q, k, v, attn_mask=float_mask)
o3 = F.scaled_dot_product_attention(q, k[:, :, :4], v[:, :, :4], is_causal=True)
o4 = F.scaled_dot_product_attention(q, k, v, scale=0.25)
manual = torch.softmax(q @ k.transpose(-2, -1) / 3 ** 0.5 + float_mask, dim=-1) @ v
pad = torch.tensor([[True] * 5, [True, True, True, False, False]])[:, None, None, :]
o5 = F.scaled_dot_product_attention(q, k, v, attn_mask=pad)
report(o1=o1[0, 1], same=torch.allclose(o1, o2, atol=1e-6), man=torch.allclose(o1, manual, atol=1e-5), o3=o3[1, 0],
       o4=o4[1, 1, 0], o5=o5[1])
