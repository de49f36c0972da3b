import torch

i32 = torch.tensor([1, 2, 3], dtype=torch.int32)
i64 = torch.tensor([4, 5, 6])
u8 = torch.tensor([250, 3, 7], dtype=torch.uint8)
i8 = torch.tensor([-3, 100, 7], dtype=torch.int8)
b = torch.tensor([True, False, True])
h = torch.tensor([1.5, 2.5, 3.5], dtype=torch.float16)
f = torch.tensor([0.5, 1.0, 1.5])
d = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
res = {
    "i32+i64": (i32 + i64).dtype, "i32*2.5": (i32 * 2.5).dtype, "u8+i8": (u8 + i8).dtype, "u8+1": (u8 + 1).dtype,
    "b+b": (b + b).dtype, "b*2": (b * 2).dtype, "b+1.0": (b + 1.0).dtype, "h+f": (h + f).dtype, "h*2.0": (h * 2.0).dtype,
    "h+i64": (h + i64).dtype, "f+d": (f + d).dtype, "i64/i64": (i64 / i64).dtype, "i64//2": (i64 // 2).dtype,
    "u8+b": (u8 + b).dtype, "f+0dim_d": (f + torch.tensor(1.0, dtype=torch.float64)).dtype,
    "i32+0dim_i64": (i32 + torch.tensor(1)).dtype, "i32+0dim_f": (i32 + torch.tensor(1.5)).dtype,
    "sum_b": b.sum().dtype, "sum_u8": u8.sum().dtype, "sum_i32": i32.sum().dtype, "mean_h": h.mean().dtype,
    "cumsum_i32": i32.cumsum(0).dtype, "prod_b": b.prod().dtype, "abs_i8": i8.abs().dtype, "neg_u8": (-u8).dtype,
    "pow_i": (i64 ** 2).dtype, "pow_f": (i64 ** 0.5).dtype, "pow_neg": (2 ** i64).dtype, "where": torch.where(b, i32, 1.5).dtype,
    "max_b": torch.maximum(b, i8).dtype, "result_type": torch.result_type(i32, 2.0), "promote": torch.promote_types(torch.uint8, torch.int8),
    "can_cast": torch.can_cast(torch.float32, torch.int32), "cmp": (u8 > i8).dtype, "bitand": (i32 & i64).dtype,
    "sqrt_i": torch.sqrt(i64).dtype, "mean_err": None,
}
vals = {"u8+1": u8 + 1, "u8+i8": u8 + i8, "neg_u8": -u8, "i64//-2": i64 // -2, "fmod": torch.fmod(-i64, 4), "rem": torch.remainder(-i64, 4),
        "h": h * 1000, "i8*2": i8 * 2, "div_trunc": torch.div(-i64, 4, rounding_mode="trunc")}
try:
    i64.mean()
except RuntimeError as e:
    res["mean_err"] = "RuntimeError"
report(**{k: str(v) for k, v in res.items()}, vals=vals)
