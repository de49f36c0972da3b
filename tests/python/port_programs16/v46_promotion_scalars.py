import torch

i = torch.tensor([1, 2, 3])
f16 = torch.tensor([1.0, 2.0], dtype=torch.float16)
u8 = torch.tensor([250, 5], dtype=torch.uint8)
i8 = torch.tensor([-3, 100], dtype=torch.int8)
b = torch.tensor([True, False])
cases = {
    "i+f": (i + 1.5), "i*2": i * 2, "i/2": i / 2, "i//2": i // 2, "i**2": i ** 2, "i**-1.0": i ** -1.0,
    "f16+f64s": f16 + torch.tensor(1.0, dtype=torch.float64), "f16*py": f16 * 3.5,
    "u8+i8": u8 + i8, "u8+1": u8 + 10, "u8*2": u8 * 2, "b+b": b + b, "b*1.5": b * 1.5, "b+1": b + 1,
    "i+True": i + True, "i32+i64": torch.tensor([1], dtype=torch.int32) + torch.tensor([2]),
    "i32+i64s": torch.tensor([1], dtype=torch.int32) + torch.tensor(2), "f32+f64s": torch.ones(1) + torch.tensor(2.0, dtype=torch.float64),
    "i+f32s": i + torch.tensor(0.5), "i8-py": i8 - 200, "2-i": 2 - i, "2.0/i": 2.0 / i, "bool&": b & torch.tensor([True, True]),
    "i.mean_f": i.float().mean(), "sum_b": b.sum(), "sum_u8": u8.sum(), "prod_i8": i8.prod(), "cumsum_b": b.cumsum(0),
}
report(**{k: v for k, v in cases.items()}, dtypes={k: v.dtype for k, v in cases.items()},
       rt=torch.result_type(i, 1.0), pt=torch.promote_types(torch.uint8, torch.int8), cc=torch.can_cast(torch.float32, torch.int32))
