import torch
i = torch.tensor([2, 3, -2])
f = torch.tensor([4.0, -8.0, 0.0])
report(p1=i ** 3, p2=2 ** i.clamp(min=0), p3=f ** 0.5, p4=f ** -1, p5=torch.pow(f, torch.tensor([0.0, 2.0, 0.0])), p6=(i ** 2.0).dtype,
       p7=torch.pow(2.5, i), p8=torch.tensor([0, 1, 2]) ** torch.tensor([0, 0, 3]), p9=torch.float_power(i, 2), p9dt=torch.float_power(i, 2).dtype)
