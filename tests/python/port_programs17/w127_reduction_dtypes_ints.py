import torch

i32 = torch.tensor([1, 2, 3], dtype=torch.int32)
u8 = torch.tensor([200, 100], dtype=torch.uint8)
b = torch.tensor([True, True, False])
h = torch.tensor([60000.0, 10000.0], dtype=torch.float16)
r = {"i32sum": i32.sum(), "i32cumsum": i32.cumsum(0), "i32prod": i32.prod(), "u8sum": u8.sum(), "u8cum": u8.cumsum(0), "bsum": b.sum(),
     "bcum": b.cumsum(0), "bprod": b.prod(), "hsum": h.sum(), "hmean": h.mean(), "hsumf": h.sum(dtype=torch.float32), "i32max": i32.max(),
     "i32sumd": i32.sum(dtype=torch.float64), "bany": b.any(), "i32mean": i32.float().mean(), "cnt": torch.count_nonzero(b),
     "argmax_b": b.int().argmax(), "u8max": u8.amax(), "i32std": i32.double().std(), "nansum_i": i32.nansum()}
err = None
try:
    i32.mean()
except RuntimeError as e:
    err = "mean" in str(e).lower() or "dtype" in str(e).lower()
report(v=r, d={k: v.dtype for k, v in r.items()}, err=err)
