import torch
import torch.nn.functional as F

B, H, T, D = 2, 2, 5, 4
q = data(B, H, T, D, seed=1)
k = data(B, H, T, D, seed=2)
v = data(B, H, T, D, seed=3)
full = F.scaled_dot_product_attention(q, k, v, is_causal=True)
steps = []
for t in range(T):
    steps.append(F.scaled_dot_product_attention(q[:, :, t:t + 1], k[:, :, : t + 1], v[:, :, : t + 1]))
inc = torch.cat(steps, dim=2)
mask = torch.ones(T, T, dtype=torch.bool).tril()
masked = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=0.3)
fmask = torch.zeros(B, 1, T, T).masked_fill(~mask, float("-inf"))
fm = F.scaled_dot_product_attention(q, k, v, attn_mask=fmask, scale=0.3)
report(full=full[0, 0], same=torch.allclose(full, inc, atol=1e-5), masked=masked[1, 1, -1], agree=torch.allclose(masked, fm, atol=1e-6))
