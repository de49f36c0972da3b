import torch
a = torch.tensor([1, 2, -8, 255], dtype=torch.int32)
u = torch.tensor([1, 128, 255], dtype=torch.uint8)
report(l=a << 2, r=a >> 1, andv=a & 6, orv=a | 1, x=a ^ 3, inv=~a, ul=u << 1, ur=u >> 3, uinv=~u, bnot=~torch.tensor([True, False]),
       bls=torch.bitwise_left_shift(a, torch.tensor([1, 2, 3, 4], dtype=torch.int32)), bx=torch.tensor([True]) ^ torch.tensor([True]))
