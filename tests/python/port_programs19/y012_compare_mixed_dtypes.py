import torch
i = torch.tensor([1, 2, 3])
f = torch.tensor([1.0, 2.5, 3.0])
u = torch.tensor([255], dtype=torch.uint8)
h = torch.tensor([0.1], dtype=torch.float16)
report(eq=i == f, lt=i < f, ge=i >= 2.5, ne=i != 2, u_gt=u > -1, u_eq=u == 255, h_eq=h == 0.1, h_eq32=h == torch.tensor([0.1]),
       hd=h.double() == 0.1, b_eq=torch.tensor([True, False]) == 1, eqfn=torch.eq(i, 2), maxim=torch.maximum(i, f), md=torch.maximum(i, f).dtype)
