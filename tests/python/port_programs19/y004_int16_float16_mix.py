import torch
a = torch.tensor([1000, -2000, 30000], dtype=torch.int16)
h = torch.tensor([0.5, 1.5, 2.0], dtype=torch.float16)
r = a * h
report(r=r, dt=r.dtype, bf=(a + torch.ones(3, dtype=torch.bfloat16)).dtype, hb=(h + torch.ones(3, dtype=torch.bfloat16)).dtype,
       hs=(h * 3).dtype, hsf=(h * 3.5).dtype, hd=(h + torch.ones(3, dtype=torch.float64)).dtype)
