import torch
h = torch.tensor([1.0, 2048.0, 65504.0, 1e-4, 0.1], dtype=torch.float16)
report(p1=h + 1, x2=h * 2, sq=h * h, div=h / 3, sum=h.sum(), sumdt=h.sum().dtype, mean=h.mean(), cum=h.cumsum(0),
       exp=torch.tensor([10.0, 12.0], dtype=torch.float16).exp(), eps=torch.finfo(torch.float16).eps, tiny=torch.finfo(torch.float16).tiny)
