import torch

i8 = torch.tensor([120, -120], dtype=torch.int8)
u8 = torch.tensor([250, 5], dtype=torch.uint8)
i32 = torch.tensor([2 ** 31 - 1], dtype=torch.int32)
f = torch.tensor([-1.7, 2.9, 300.5, -0.5])
report(i8_add=i8 + torch.tensor(10, dtype=torch.int8), u8_add=u8 + 10, u8_sub=u8 - torch.tensor(10, dtype=torch.uint8), i8_mul=i8 * 2,
       i32_add=i32 + torch.tensor([1], dtype=torch.int32), f_to_i=f.to(torch.int64), f_to_i32=f.int(), f_to_u8=torch.tensor([1.7, 255.9, 3.2]).to(torch.uint8),
       b_from_f=f.bool(), round_half=torch.round(torch.tensor([0.5, 1.5, 2.5, -1.5, -2.5])), round_dec=torch.round(torch.tensor([1.2345, -2.5551]), decimals=2),
       trunc=f.trunc(), floor=f.floor(), ceil=f.ceil(), i_div_f=(torch.tensor([7]) / 2).dtype, i_true=torch.tensor([7, -7]).div(2), abs_min=torch.tensor([-128], dtype=torch.int8).abs(),
       sum_u8=torch.tensor([200, 100], dtype=torch.uint8).sum(), sum_u8_dtype=torch.tensor([200, 100], dtype=torch.uint8).sum().dtype, cumsum_i32=torch.tensor([1, 2], dtype=torch.int32).cumsum(0).dtype)
