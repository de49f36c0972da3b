import torch
import torch.nn.functional as F
q, k, v = data(2, 2, 4, 8), data(2, 2, 5, 8, seed=3), data(2, 2, 5, 8, seed=4)
bmask = torch.ones(4, 5, dtype=torch.bool).tril(1)
fmask = torch.zeros(4, 5).masked_fill(~bmask, float("-inf"))
a = F.scaled_dot_product_attention(q, k, v, attn_mask=bmask)
b = F.scaled_dot_product_attention(q, k, v, attn_mask=fmask)
c = F.scaled_dot_product_attention(q, k[:, :, :4], v[:, :, :4], is_causal=True)
d = F.scaled_dot_product_attention(q, k, v, scale=0.5)
man = torch.softmax(q @ k.transpose(-2, -1) * 0.5, -1) @ v
e = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.randn(1) * 0 + fmask[None, None])
qg = q.clone().requires_grad_()
F.scaled_dot_product_attention(qg, k, v, attn_mask=bmask).sum().backward()
report(a=a[0, 0, 0], same=torch.allclose(a, b, atol=1e-6), c=c[1, 1, 1], d=torch.allclose(d, man, atol=1e-5), e=torch.allclose(e, b), g=qg.grad[0, 0, 1])
