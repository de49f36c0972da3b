import torch
res = {}
def attempt(fn):
    try:
        return ["ok", fn()]
    except RuntimeError as e:
        return ["RuntimeError", None]
i = torch.tensor([1, 2, 3])
res["i_iadd_f"] = attempt(lambda: i.clone().add_(torch.tensor([0.5, 0.5, 0.5])))
res["i_imul_scalar"] = attempt(lambda: i.clone().mul_(2.5))
def imul_op():
    t = i.clone(); t *= 2; return t
res["i_imul_int"] = attempt(imul_op)
def iadd_float_op():
    t = torch.zeros(3); t += i; return t
res["f_iadd_i"] = attempt(iadd_float_op)
def u8():
    t = torch.tensor([250, 5], dtype=torch.uint8); t += 10; return t
res["u8_wrap"] = attempt(u8)
def dup_idx():
    t = torch.zeros(4); idx = torch.tensor([0, 0, 2]); t[idx] += 1; return t
res["dup_idx"] = attempt(dup_idx)
def dup_put():
    t = torch.zeros(4); t.index_put_((torch.tensor([0, 0, 2]),), torch.tensor(1.0), accumulate=True); return t
res["dup_put"] = attempt(dup_put)
def b_iadd():
    t = torch.tensor([True, False]); t |= torch.tensor([False, True]); return t
res["b_or"] = attempt(b_iadd)
def div_int():
    t = torch.tensor([5, 7]); t //= 2; return t
res["ifloordiv"] = attempt(div_int)
def true_div_int():
    t = torch.tensor([5, 7]); t /= 2; return t
res["itruediv"] = attempt(true_div_int)
def f16():
    t = torch.ones(2, dtype=torch.float16); t += torch.ones(2); return [t, str(t.dtype)]
res["f16_iadd_f32"] = attempt(f16)
def clamp_int():
    t = torch.tensor([1, 5, 9]); t.clamp_(2, 6); return t
res["clamp_i"] = attempt(clamp_int)
def copy_cast():
    t = torch.zeros(3, dtype=torch.int64); t.copy_(torch.tensor([1.7, -1.7, 2.5])); return t
res["copy_cast"] = attempt(copy_cast)
def fill_int():
    t = torch.zeros(2, dtype=torch.int32); t.fill_(3.9); return t
res["fill_int"] = attempt(fill_int)
def setitem_float_into_int():
    t = torch.zeros(3, dtype=torch.long); t[1] = 2.7; t[2] = torch.tensor(-1.5); return t
res["setitem_cast"] = attempt(setitem_float_into_int)
def where_inplace():
    t = torch.arange(4.0); t[t > 1] = torch.tensor([10.0, 20.0]); return t
res["mask_assign"] = attempt(where_inplace)
report(**res)
