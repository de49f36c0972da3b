import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([1.0, 2.0])
h = torch.tensor([1.0], dtype=torch.float16)
b = torch.tensor([True, False])
u8 = torch.tensor([250], dtype=torch.uint8)
i32 = torch.tensor([7], dtype=torch.int32)
d = torch.tensor([1.0], dtype=torch.float64)
out = {
    "i*2": (i * 2).dtype, "i*2.5": (i * 2.5).dtype, "i/2": (i / 2).dtype, "i//2": (i // 2).dtype,
    "f*2": (f * 2).dtype, "h+1.5": (h + 1.5).dtype, "h+f": (h + f[:1]).dtype, "b+1": (b + 1).dtype,
    "b*1.0": (b * 1.0).dtype, "u8+1": (u8 + 10), "i32+i": (i32 + i).dtype, "i32*1.5": (i32 * 1.5).dtype,
    "f+d": (f + d).dtype, "f+dscalar": (f + torch.tensor(1.0, dtype=torch.float64)).dtype,
    "i+fscalar": (i + torch.tensor(1.5)).dtype, "b&b": (b & b).dtype, "i**2": (i ** 2).dtype, "i**-1.0": (i ** -1.0).dtype,
    "pow": torch.pow(2, i).dtype, "rt": torch.result_type(i, 1.0), "can": torch.can_cast(torch.float32, torch.int32),
    "pt": torch.promote_types(torch.int64, torch.float16), "cplx": (f * 1j).dtype, "mean_int_err": None,
    "i%2": (i % 2), "neg//": torch.tensor([-7]) // 2, "fmod": torch.fmod(torch.tensor([-7]), 2), "rem": torch.remainder(torch.tensor([-7.0]), 2),
}
try:
    i.mean()
except RuntimeError:
    out["mean_int_err"] = True
report(**{k.replace("*", "m").replace("/", "d").replace("+", "p"): v for k, v in out.items()})
