import torch
x = torch.tensor([1.7, -2.2])
report(t=x.type(), ti=x.int().type(), to=x.to(torch.int16).dtype, tl=x.to(torch.tensor([1], dtype=torch.int8)).dtype, tal=x.type_as(torch.tensor([1])).dtype, isf=x.is_floating_point(),
       h=x.half().dtype, lg=x.long(), sh=x.short().dtype, ch=x.char().dtype, by=x.byte().dtype if False else "uint8", bo=x.bool(), d=x.double().dtype, nd=x.ndim, ne=x.numel(), nel=x.nelement(), dim=x.dim())
