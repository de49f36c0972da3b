import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([1.0, 2.0])
z64 = torch.tensor(2.5, dtype=torch.float64)
zi = torch.tensor(3)
h = torch.tensor([1.0, 2.0], dtype=torch.float16)
r = {
    "i*z64": i * z64, "f*z64": f * z64, "h*z64": h * z64, "i*zi": i * zi, "h+zi": h + zi, "i+True": i + True,
    "f**2": f ** 2, "i**2": i ** 2, "i**-1f": i ** -1.0, "2**i": 2 ** i, "i*1j": (i * 1j), "f/zi": f / zi,
    "pow_t": torch.pow(2, f), "where": torch.where(i > 1, i, 0.5), "clamp_i": torch.clamp(i, min=1.5) if False else torch.clamp(i, 2),
    "max_mix": torch.maximum(i, torch.tensor([2.0, 1.0, 5.0], dtype=torch.float64)), "res": torch.result_type(i, 2.0),
}
report(v={k: v for k, v in r.items() if not isinstance(v, torch.dtype) and not v.is_complex()}, d={k: (v if isinstance(v, torch.dtype) else v.dtype) for k, v in r.items()},
       ci=torch.view_as_real(r["i*1j"]), cast=torch.can_cast(torch.float32, torch.int32), pt=torch.promote_types(torch.uint8, torch.int8))
