import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
res = {}
try:
    i.add_(f)
    res["int_add_float"] = i
except RuntimeError:
    res["int_add_float"] = "RuntimeError"
f2 = f.clone()
f2.add_(i)
res["float_add_int"] = f2
i2 = i.clone()
i2 *= 2
res["int_mul_int"] = i2
try:
    i3 = i.clone()
    i3 *= 1.5
    res["int_mul_py_float"] = i3
except RuntimeError:
    res["int_mul_py_float"] = "RuntimeError"
h = torch.ones(3, dtype=torch.float16)
h += torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
res["half_iadd_double"] = h
res["half_dtype"] = h.dtype
b = torch.tensor([True, False, True])
b |= torch.tensor([False, False, True])
res["bool_or"] = b
u = torch.tensor([250], dtype=torch.uint8)
u += 10
res["u8_wrap"] = u
d = torch.zeros(3, dtype=torch.float64)
d.copy_(torch.tensor([1, 2, 3]))
res["copy_cast"] = d
li = torch.zeros(2, dtype=torch.long)
li[0] = 3.9
li[1] = -3.9
res["set_trunc"] = li
mf = torch.zeros(3)
mf.masked_fill_(torch.tensor([True, False, True]), 2)
res["masked_int_value"] = mf
ii = torch.arange(4)
ii.clamp_(1, 2)
res["clamp_int"] = ii
try:
    torch.arange(3).div_(2)
    res["int_div_"] = "ok"
except RuntimeError:
    res["int_div_"] = "RuntimeError"
report(**res)
