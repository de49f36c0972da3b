import torch

s = data(2, 5, seed=3).half()
m = torch.tensor([[1, 1, 0, 0, 1], [0, 1, 1, 1, 1]], dtype=torch.bool)
filled = s.masked_fill(~m, torch.finfo(s.dtype).min)
p = filled.float().softmax(-1)
ph = torch.softmax(filled, -1)
bias = (1.0 - m.to(torch.float16)) * -10000.0
q = (s + bias).float().softmax(-1)
report(filled=filled, p=p, ph=ph, ph_dtype=ph.dtype, q=q, fmin=torch.finfo(torch.float16).min,
       fmax=torch.finfo(torch.bfloat16).max)
# TOL 2e-3
