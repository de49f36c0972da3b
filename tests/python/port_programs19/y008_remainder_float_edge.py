import torch
x = torch.tensor([5.5, -5.5, 5.5, -5.5, 0.0, -0.0, 1e-8])
y = torch.tensor([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, -1.0])
report(rem=torch.remainder(x, y), fmod=torch.fmod(x, y), rem_s=torch.remainder(x, 1.5), fmod_s=torch.fmod(x, -1.5),
       rem_sign=torch.signbit(torch.remainder(x, y)), div_floor=torch.div(x, y, rounding_mode="floor"))
