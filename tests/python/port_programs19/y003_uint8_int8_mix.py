import torch
u = torch.tensor([200, 10, 255], dtype=torch.uint8)
i = torch.tensor([-5, 100, 1], dtype=torch.int8)
s = u + i
report(s=s, dt=s.dtype, u_plus_300=(u + 300).dtype, u_wrap=u + torch.tensor(100, dtype=torch.uint8), neg=-u,
       u_times=u * 2, u_int16=(u.to(torch.int16) + i).dtype, i_div=(i / 3).dtype)
