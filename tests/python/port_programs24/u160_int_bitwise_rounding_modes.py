import torch

x = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.675])
i = torch.tensor([-9, -4, 0, 4, 9])
report(round=torch.round(x), round1=torch.round(x, decimals=1), floor_div_neg=torch.div(i, 4, rounding_mode="floor"), trunc_div=torch.div(i, 4, rounding_mode="trunc"),
       rshift_neg=i >> 1, and_neg=i & 3, mod_neg=i % 4, fmod_neg=torch.fmod(i, 4), to_int8=torch.tensor([130, -130, 255]).to(torch.int8),
       to_uint8=torch.tensor([-1, 256, 300]).to(torch.uint8), frac=torch.frac(x), trunc=torch.trunc(x), fix=torch.fix(x))
