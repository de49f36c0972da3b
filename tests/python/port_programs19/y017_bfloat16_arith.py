import torch
b = torch.tensor([1.0, 256.0, 3.14159, 1e30, -0.001], dtype=torch.bfloat16)
report(b=b, p1=b + 1, x3=b * 3, s=b[:3].sum(), m=b[:3].mean(), to16=b[:3].half(), cmp=b > 1, fi=[torch.finfo(torch.bfloat16).eps, torch.finfo(torch.bfloat16).max],
       mm=(torch.ones(2, 3, dtype=torch.bfloat16) @ torch.ones(3, 2, dtype=torch.bfloat16)), mmdt=(torch.ones(2, 3, dtype=torch.bfloat16) @ torch.ones(3, 2, dtype=torch.bfloat16)).dtype)
