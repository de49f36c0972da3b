import torch

scores = data(2, 4, 4, seed=1).half()
mask = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 1]], dtype=torch.bool)
m = scores.masked_fill(~mask[:, None, :], torch.finfo(scores.dtype).min)
p = m.float().softmax(-1).half()
err = None
try:
    scores.masked_fill(~mask[:, None, :], torch.finfo(torch.float32).min)
except RuntimeError as e:
    err = "overflow" in str(e)
err2 = None
try:
    torch.full((2,), 1e5, dtype=torch.float16)
except RuntimeError as e:
    err2 = "overflow" in str(e)
ok = torch.full((2,), float("-inf"), dtype=torch.float16)
inf = torch.ones(2, dtype=torch.float16) * 1e5
report(p=p[0], err=err, err2=err2, ok=ok, inf=inf, big=torch.full((1,), 65504.0, dtype=torch.float16))
