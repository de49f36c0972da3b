import torch
i = torch.tensor([1, 2, 3]); f = torch.tensor([1.0, 2.0, 3.0]); b = torch.tensor([True, False, True])
d = torch.tensor([1.0], dtype=torch.float64); h = torch.tensor([1.0], dtype=torch.float16); bf = torch.tensor([1.0], dtype=torch.bfloat16)
i32 = torch.tensor([1], dtype=torch.int32); u8 = torch.tensor([1], dtype=torch.uint8); i8 = torch.tensor([1], dtype=torch.int8)
cases = {
    "i+f": i + f, "i*2.5": i * 2.5, "i/i": i / i, "i//2": i // 2, "i**2": i ** 2, "i**0.5": i ** 0.5, "2**i": 2 ** i, "2.0**i": 2.0 ** i,
    "b+b": b + b, "b*i": b * i, "b+1.5": b + 1.5, "b.sum": b.sum(), "i.mean_f": i.float().mean(), "i32+i": i32 + i, "u8+i8": u8 + i8, "u8+i32": u8 + i32,
    "h+f": h + f[:1], "bf+h": bf + h, "d+f": d + f[:1], "h*2": h * 2, "h+d0": h + torch.tensor(1.0, dtype=torch.float64), "f+d0": f + torch.tensor(1.0, dtype=torch.float64),
    "i+f0": i + torch.tensor(1.5), "i32+i64_0": i32 + torch.tensor(5), "u8*1000": u8 * 1000, "sqrt_i": torch.sqrt(i), "exp_b": torch.exp(b), "sig_i": torch.sigmoid(i),
    "abs_i": i.abs(), "neg_i": -i, "max_i": i.max(), "sum_i32": i32.sum(), "sum_u8": u8.sum(), "prod_b": b.prod(), "cumsum_b": b.cumsum(0), "mean_d": d.mean(),
    "where_if": torch.where(b, i, f), "where_ii": torch.where(b, i, 0), "where_f": torch.where(b, 1.0, 0), "cat_if": torch.cat([i, f]), "stack_bi": torch.stack([b, b]).float(),
    "arange_f": torch.arange(0, 3, 0.5), "arange_i": torch.arange(3), "arange_d": torch.arange(3.0), "full_b": torch.full((1,), True), "full_i": torch.full((1,), 3), "tensor_mix": torch.tensor([1, 2.0]),
    "i.div_floor": torch.div(i, 2, rounding_mode="floor"), "true_div_b": b / 2, "clamp_i_f": i.clamp(max=2.5) if False else i.clamp(max=2), "fmod_if": torch.fmod(i, 1.5), "pow_fi": f.pow(i), "mm_d": (d.view(1, 1) @ d.view(1, 1)),
    "round_i": torch.round(i), "floor_i": torch.floor(i), "atan2_i": torch.atan2(i, i), "eq_if": i == f, "lt_bi": b < i, "min_bf": torch.minimum(b, f), "max_hf": torch.maximum(h, f[:1]),
}
report(**{k: [str(v.dtype), v] for k, v in cases.items()}, rt=[torch.result_type(i, 1.0), torch.promote_types(torch.uint8, torch.int8), torch.can_cast(torch.float32, torch.int32), torch.result_type(h, d)])
