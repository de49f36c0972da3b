import torch
u = torch.tensor([0, 100, 250], dtype=torch.uint8)
i = torch.tensor([-100, 0, 100], dtype=torch.int8)
report(a=u.clamp(max=300), b=u.clamp(min=-5), c=i.clamp(-1000, 1000), d=i.clamp(min=-50, max=200), e=u.clamp(10, 300).dtype, f=torch.clamp(i, max=1e9),
       g=u.clamp(min=2.5), gdt=u.clamp(min=2.5).dtype, h=torch.tensor([1, 2, 3]).clamp(max=2 ** 40))
