import torch

B, T, H, D = 2, 4, 2, 3
q = data(B, T, H, D, seed=1)
k = data(B, T, H, D, seed=2)
v = data(B, T, H, D, seed=3)
scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / D ** 0.5
mask = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
scores = scores.masked_fill(mask, float("-inf"))
attn = scores.softmax(-1)
out = torch.einsum("bhqk,bkhd->bqhd", attn, v)
ref = torch.nn.functional.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
rel = torch.einsum("bhqd,kd->bhqk", q.transpose(1, 2), data(T, D, seed=4))
report(out=out[1, 2], same=torch.allclose(out, ref.transpose(1, 2), atol=1e-5), rel=rel[0, 1],
       bdot=torch.einsum("bi,bi->b", q[:, 0, 0], k[:, 0, 0]), outer=torch.einsum("bi,bj->bij", q[:, 0, 0], k[:, 0, 0])[0])
