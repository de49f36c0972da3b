import torch

i8 = torch.tensor([1, 2], dtype=torch.int8)
u8 = torch.tensor([200, 3], dtype=torch.uint8)
i32 = torch.tensor([1, 2], dtype=torch.int32)
i64 = torch.tensor([1, 2])
f16 = torch.tensor([1.0, 2.0], dtype=torch.float16)
f32 = torch.tensor([1.0, 2.0])
f64 = torch.tensor([1.0, 2.0], dtype=torch.float64)
b = torch.tensor([True, False])
bf = torch.tensor([1.0, 2.0], dtype=torch.bfloat16)
pairs = {
    "i8+u8": i8 + u8, "i32+i64": i32 + i64, "i64*2.5": i64 * 2.5, "i32/i32": i32 / i32, "b+b": b + b, "b*3": b * 3, "b*1.5": b * 1.5,
    "f16+f32": f16 + f32, "bf+f16": bf + f16, "f32+f64": f32 + f64, "i64+f16": i64 + f16, "f32+0d_f64": f32 + torch.tensor(1.0, dtype=torch.float64),
    "i32+0d_f64": i32 + torch.tensor(1.0, dtype=torch.float64), "u8+i8_0d": u8 + torch.tensor(1, dtype=torch.int8), "b+i8": b + i8,
    "sum_b": b.sum(), "sum_i8": i8.sum(), "mean_f16": f16.mean(), "u8-": u8 - 201, "i8_neg": -i8, "pow": i64 ** 2, "powf": i64 ** 0.5,
    "pown": i64 ** -1.0 if False else f32 ** -1, "cumsum_i8": i8.cumsum(0), "prod_b": b.prod(), "where": torch.where(b, i32, 2.5),
    "clamp": i64.clamp(max=1.5) if False else i64.clamp(max=1), "true_div_b": b / 2, "abs_u8": u8.abs(),
}
report(dtypes={k: str(v.dtype) for k, v in pairs.items()}, vals={k: v.float().tolist() for k, v in pairs.items()},
       result_type=str(torch.result_type(i32, 1.0)), promote=str(torch.promote_types(torch.uint8, torch.int8)),
       can_cast=torch.can_cast(torch.float32, torch.int32))
