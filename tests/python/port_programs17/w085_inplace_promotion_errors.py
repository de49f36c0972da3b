import torch

out = []
i = torch.tensor([1, 2, 3])
try:
    i += 0.5
except RuntimeError as e:
    out.append("inplace-float: " + type(e).__name__)
i2 = torch.tensor([1, 2, 3])
i2 *= 2
f = torch.tensor([1.0, 2.0, 3.0])
f += torch.tensor([1, 1, 1])
h = torch.tensor([1.0, 2.0], dtype=torch.float16)
h += torch.tensor([0.1, 0.2], dtype=torch.float64)
u = torch.tensor([200], dtype=torch.uint8)
u += 100
b = torch.tensor([True, False])
try:
    b += 1
except RuntimeError as e:
    out.append("bool: " + type(e).__name__)
c = torch.tensor([1, 2]).float()
c[0] = 7
idx = torch.zeros(3, dtype=torch.long)
idx[1] = 2.9
report(out=out, i2=i2, f=f, h=h, hd=h.dtype, u=u, idx=idx, c=c)
