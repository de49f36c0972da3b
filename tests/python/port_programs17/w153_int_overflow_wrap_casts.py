import torch

i8 = torch.tensor([120, -120], dtype=torch.int8)
u8 = torch.tensor([250, 5], dtype=torch.uint8)
i32 = torch.tensor([2 ** 31 - 1], dtype=torch.int32)
report(a=i8 + i8, b=u8 + u8, c=u8 - torch.tensor([251, 6], dtype=torch.uint8), d=i32 + 1, e=i8 * 2, f=(u8 * 2).dtype,
       g=torch.tensor([3.9, -3.9, 255.5]).to(torch.int64), h=torch.tensor([1e10]).to(torch.int64), i=torch.tensor([-1, 256, 511]).to(torch.uint8),
       j=torch.tensor([1.5, -0.5]).to(torch.bool), k=torch.tensor([0, 2]).bool(), l=torch.tensor([True, False]).float(), m=(u8 // 3), n=u8 >> 1,
       o=torch.iinfo(torch.int8).min, p=torch.iinfo(torch.uint8).max, q=torch.tensor([65504.0, 65520.0]).half())
