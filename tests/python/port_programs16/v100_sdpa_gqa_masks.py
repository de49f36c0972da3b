import torch
import torch.nn.functional as F

B, Hq, Hkv, T, S, D = 1, 4, 2, 3, 5, 4
q = data(B, Hq, T, D)
k = data(B, Hkv, S, D, seed=2)
v = data(B, Hkv, S, D, seed=3)
k_rep = k.repeat_interleave(Hq // Hkv, dim=1)
v_rep = v.repeat_interleave(Hq // Hkv, dim=1)
bool_mask = torch.ones(T, S, dtype=torch.bool).tril(diagonal=S - T)
out = F.scaled_dot_product_attention(q, k_rep, v_rep, attn_mask=bool_mask)
gqa = F.scaled_dot_product_attention(q, k, v, attn_mask=bool_mask, enable_gqa=True)
add_mask = torch.zeros(T, S).masked_fill(~bool_mask, float("-inf"))
out_add = F.scaled_dot_product_attention(q, k_rep, v_rep, attn_mask=add_mask, scale=0.3)
manual = ((q @ k_rep.transpose(-2, -1)) * 0.3 + add_mask).softmax(-1) @ v_rep
causal = F.scaled_dot_product_attention(q, k_rep[:, :, :T], v_rep[:, :, :T], is_causal=True)
report(out=out[0, 1], gqa=torch.allclose(out, gqa, atol=1e-6), add=torch.allclose(out_add, manual, atol=1e-5), causal=causal[0, 3],
       mask=bool_mask)
