import torch

i = torch.tensor([1, 5, 9])
f = torch.tensor([1.5, 5.5, 9.5])
h = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16)
m = torch.tensor([True, False, True])
r = {"w_i_f": torch.where(m, i, 2.5), "w_i_i": torch.where(m, i, 0), "w_f_i": torch.where(m, f, i), "w_h_s": torch.where(m, h, 1.0), "w_s_s": torch.where(m, 1.0, 0.0),
     "w_h_f": torch.where(m, h, f), "w_b_b": torch.where(m, True, False), "mf_i": i.masked_fill(m, 2.7), "mf_h": h.masked_fill(m, 1e4),
     "cl_i": torch.clamp(i, 2, 6), "cl_if": torch.clamp(i, torch.tensor(2.5)), "fmin": torch.fmin(i, f), "maximum_ih": torch.maximum(i, h),
     "add_ih": i + h, "mul_bh": m * h, "div_ii": i / i, "fl_fi": f // i, "rem_if": i % 2.5, "eq_if": i == f.floor(), "lt_hi": h < i}
report(v=r, d={k: v.dtype for k, v in r.items()})
