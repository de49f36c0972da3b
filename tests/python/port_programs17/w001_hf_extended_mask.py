import torch
import torch.nn.functional as F

B, T, H, D = 2, 5, 2, 4
mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]])
ext = mask[:, None, None, :].to(torch.float32)
ext = (1.0 - ext) * torch.finfo(torch.float32).min
q = data(B, H, T, D, seed=3)
k = data(B, H, T, D, seed=4)
v = data(B, H, T, D, seed=5)
scores = q @ k.transpose(-1, -2) / D ** 0.5 + ext
probs = scores.softmax(-1)
out = probs @ v
causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
combined = causal[None, None] & mask[:, None, None, :].bool()
s2 = (q @ k.transpose(-1, -2)).masked_fill(~combined, float("-inf"))
p2 = F.softmax(s2 / D ** 0.5, dim=-1)
report(out=out, probs0=probs[0, 0], p2=p2[0, 1], minval=torch.finfo(torch.float32).min, ext_dtype=ext.dtype,
       tiny=torch.finfo(torch.float16).tiny, eps=torch.finfo(torch.bfloat16).eps)
