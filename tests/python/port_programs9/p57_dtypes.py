import torch
a = torch.tensor([7, -7, 5]); b = torch.tensor([2, 2, -3])
r = dict(fd=a // b, md=a % b, div=a / b, tdf=torch.div(a, b, rounding_mode="floor"), tdt=torch.div(a, b, rounding_mode="trunc"), rem=torch.remainder(a, b), fmod=torch.fmod(a, b))
r["mulf"] = (a * 1.5).dtype; r["addi"] = (a + 2).dtype; r["pow"] = a ** 2; r["powf"] = (a ** 0.5).dtype
r["band"] = a & 3; r["bor"] = a | 8; r["bxor"] = a ^ b; r["bnot"] = ~a
u = torch.tensor([200, 100], dtype=torch.uint8)
r["uadd"] = u + u; r["upromo"] = (u + torch.tensor([1, 1])).dtype; r["uf"] = (u * 0.5).dtype
i8 = torch.tensor([-100, 100], dtype=torch.int8); r["i8"] = i8 * 2
h = torch.tensor([1.0, 2.0], dtype=torch.float16); r["hdt"] = (h + torch.tensor([1.0])).dtype; r["h64"] = (h + torch.tensor([1.0], dtype=torch.float64)).dtype
r["bf"] = (torch.ones(2, dtype=torch.bfloat16) * 3).dtype
d = torch.tensor([1.0, 2.0], dtype=torch.float64); r["dmix"] = (d + torch.ones(2)).dtype
r["boolsum"] = torch.tensor([True, True, False]).sum(); r["boolsumdt"] = torch.tensor([True]).sum().dtype
r["mean_int_err"] = None
try:
    torch.tensor([1, 2]).mean()
except RuntimeError as e:
    r["mean_int_err"] = "RuntimeError"
r["intmeanf"] = torch.tensor([1, 2]).float().mean()
r["argmax_dt"] = torch.tensor([1.0, 3.0]).argmax().dtype
r["cmp"] = (a > 0).dtype; r["where_dt"] = torch.where(a > 0, a, 0.5).dtype
r["clampi"] = a.clamp(min=0); r["absi"] = a.abs(); r["neg"] = -a; r["sign"] = a.sign()
torch.set_default_dtype(torch.float64)
r["def64"] = torch.tensor([1.0]).dtype; r["def_int"] = torch.tensor([1]).dtype; r["zeros"] = torch.zeros(1).dtype; r["lin"] = torch.nn.Linear(2, 2).weight.dtype
r["arange"] = torch.arange(3).dtype; r["arangef"] = torch.arange(0, 1, 0.5).dtype
torch.set_default_dtype(torch.float32)
m = torch.nn.Linear(3, 2).double(); r["mdt"] = m.weight.dtype; r["out"] = m(torch.ones(1, 3, dtype=torch.float64)).dtype
r["float_of_int"] = torch.tensor(3).float().item(); r["round"] = torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5])); r["rdec"] = torch.round(torch.tensor([1.2345]), decimals=2)
r["trunc"] = torch.trunc(torch.tensor([-1.7, 1.7])); r["isfin"] = torch.isfinite(torch.tensor([1.0, float("inf"), float("nan")]))
r["nan2num"] = torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf")]), nan=0.0, posinf=1.0)
r["true_div"] = torch.true_divide(torch.tensor(5), 2); r["floor_div"] = torch.floor_divide(torch.tensor([5.5, -5.5]), 2)
r["itemtype"] = type(torch.tensor(3).item()).__name__; r["itemf"] = type(torch.tensor(3.0).item()).__name__; r["itemb"] = type(torch.tensor(True).item()).__name__
report(**r)
