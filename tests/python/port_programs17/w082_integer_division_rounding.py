import torch

a = torch.tensor([7, -7, 7, -7, 0, 5])
b = torch.tensor([2, 2, -2, -2, 3, -5])
fa = a.float()
fb = b.float()
report(floordiv=a // b, trunc=torch.div(a, b, rounding_mode="trunc"), floor=torch.div(a, b, rounding_mode="floor"),
       true=torch.div(a, b), rem=a % b, fmod=torch.fmod(a, b), frem=torch.remainder(fa, fb), ffmod=fa.fmod(fb),
       ffloor=fa // fb, scal=a // 3, rscal=17 // b, neg=(-a) % 3, fs=torch.remainder(fa, -2.5),
       rnd=torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 2.675])), rndd=torch.round(torch.tensor([2.675, -1.005, 1234.5678]), decimals=2),
       rndneg=torch.round(torch.tensor([1234.5678, 15.0, 25.0]), decimals=-1), dt=(a // b).dtype, idt=(a / b).dtype)
