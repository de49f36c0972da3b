import torch
a = torch.tensor([7, -7, 7, -7, 0])
b = torch.tensor([2, 2, -2, -2, 3])
af = a.float(); bf = b.float()
report(fd=torch.floor_divide(a, b), op=a // b, rem=torch.remainder(a, b), mod=a % b, fmod=torch.fmod(a, b),
       fdf=af // bf, remf=af % bf, fmodf=torch.fmod(af, bf), trunc=torch.div(a, b, rounding_mode="trunc"),
       floor=torch.div(a, b, rounding_mode="floor"), true=torch.div(a, b), scal=a % 3, rscal=10 % b, sfd=-7 // b)
