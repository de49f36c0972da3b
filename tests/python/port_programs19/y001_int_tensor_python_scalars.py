import torch
a = torch.tensor([1, 2, 3])
report(add_f=a + 1.5, mul_i=a * 2, div=a / 2, fdiv=a // 2, pow_f=a ** 0.5, pow_i=a ** 2, sub_b=a - 1,
       dt=[(a + 1.5).dtype, (a * 2).dtype, (a / 2).dtype, (a // 2).dtype, (a ** 2).dtype, (a + True).dtype])
