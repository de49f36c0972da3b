import torch
x = torch.arange(4.0)
s = torch.tensor(2.0)
i = torch.tensor(3)
report(a=x * s, b=x + i, bdt=(x + i).dtype, c=x[i], d=x ** s, e=torch.tensor([1, 2]) * s, edt=(torch.tensor([1, 2]) * s).dtype, f=i * 2.5, fdt=(i * 2.5).dtype,
       g=(i / 2).dtype, h=(i // 2), hh=(i // 2).dtype, k=(s > 1).item())
