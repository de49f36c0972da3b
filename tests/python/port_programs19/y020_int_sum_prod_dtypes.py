import torch
i8 = torch.tensor([100, 100, 100], dtype=torch.int8)
u8 = torch.tensor([200, 200], dtype=torch.uint8)
i32 = torch.tensor([2 ** 30, 2 ** 30], dtype=torch.int32)
report(s8=i8.sum(), s8dt=i8.sum().dtype, p8=i8.prod(), p8dt=i8.prod().dtype, su=u8.sum(), s32=i32.sum(), s32dt=i32.sum().dtype,
       sdt=i8.sum(dtype=torch.int8), cs=i8.cumsum(0), csdt=i8.cumsum(0).dtype, mean_err=0)
