import torch
c = torch.tensor([True, False, True])
x = torch.tensor([1, 2, 3])
h = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16)
report(w1=torch.where(c, x, 0), w1dt=torch.where(c, x, 0).dtype, w2=torch.where(c, x, 0.5), w2dt=torch.where(c, x, 0.5).dtype,
       w3=torch.where(c, 1.0, 0.0), w3dt=torch.where(c, 1.0, 0.0).dtype, w4dt=torch.where(c, h, 2.5).dtype, w5=torch.where(c, 1, 0).dtype,
       w6=torch.where(x > 1, x, -x), w7=x.where(c, torch.tensor(9)))
