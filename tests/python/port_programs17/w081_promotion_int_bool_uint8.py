import torch

u8 = torch.tensor([250, 3, 7], dtype=torch.uint8)
i8 = torch.tensor([-5, 3, 100], dtype=torch.int8)
b = torch.tensor([True, False, True])
i32 = torch.tensor([1, 2, 3], dtype=torch.int32)
f16 = torch.tensor([0.5, 1.5, 2.5], dtype=torch.float16)
bf = torch.tensor([0.5, 1.5, 2.5], dtype=torch.bfloat16)
res = {
    "u8+i8": u8 + i8, "u8+b": u8 + b, "b+b": b + b, "b*2.5": b * 2.5, "u8+10": u8 + 10, "i8*i32": i8 * i32,
    "f16+bf": f16 + bf, "f16+i32": f16 + i32, "bf*2": bf * 2, "u8/2": u8 / 2, "i32/i32": i32 / i32, "f16+1.0": f16 + 1.0,
    "u8-300": u8 - 300 if False else u8 - 3, "b-": (~b), "i8abs": i8.abs(), "u8neg": -u8, "sum_b": b.sum(), "sum_u8": u8.sum(),
    "mean_f16": f16.mean(), "prod_i8": i8.prod(), "cumsum_b": b.cumsum(0), "max_b": b.max(), "u8_gt": u8 > i8,
}
report(vals={k: v for k, v in res.items()}, dts={k: v.dtype for k, v in res.items()})
