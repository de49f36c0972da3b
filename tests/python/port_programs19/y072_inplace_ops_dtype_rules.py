import torch
x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16)
x += 1
x *= torch.tensor([2.0, 2.0, 2.0])
i = torch.tensor([1, 2, 3], dtype=torch.int8)
i += 100
i *= torch.tensor(2)
u = torch.tensor([250], dtype=torch.uint8)
u += 10
b = torch.tensor([1.0, 2.0])
b.sub_(torch.tensor([True, False]).float())
report(x=x, xdt=x.dtype, i=i, idt=i.dtype, u=u, b=b, c=torch.tensor([1, 2]).clone().mul_(3), d=torch.tensor([1.5]).pow_(2), e=torch.tensor([7]).fmod_(3),
       f=torch.tensor([-7]).remainder_(3), g=torch.tensor([10]).floor_divide_(torch.tensor([3])))
