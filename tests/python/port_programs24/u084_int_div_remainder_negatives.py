import torch

a = torch.tensor([7, -7, 7, -7, 0, 5])
b = torch.tensor([2, 2, -2, -2, 3, -5])
fa, fb = a.float(), b.float()
report(floor=torch.div(a, b, rounding_mode="floor"), trunc=torch.div(a, b, rounding_mode="trunc"), true=a / b, floordiv=a // b,
       rem=torch.remainder(a, b), fmod=torch.fmod(a, b), mod=a % b, ffloor=fa // fb, frem=fa % fb, ffmod=torch.fmod(fa, fb),
       scalar_mod=a % 3, rscalar=7 // b, neg_scalar=a % -3, float_mod=torch.tensor([-1.5, 2.5]) % 1.0, fmod_f=torch.fmod(torch.tensor([-1.5, 2.5]), 1.0),
       div_dtype=torch.div(a, b, rounding_mode="floor").dtype, true_dtype=(a / b).dtype, pyfloordiv=[x // y for x, y in zip(a.tolist(), b.tolist())],
       zero_div_f=(fa / torch.zeros(6)).tolist(), nf=torch.tensor([-0.0]) // 1, neg_zero_mod=torch.tensor([-4.0]) % 2.0,
       int_floor_of_float=torch.floor_divide(torch.tensor([-3.5, 3.5]), 2))
