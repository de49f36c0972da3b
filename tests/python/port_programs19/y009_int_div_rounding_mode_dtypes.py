import torch
a = torch.tensor([9, -9], dtype=torch.int8)
u = torch.tensor([9, 250], dtype=torch.uint8)
report(t=torch.div(a, 2, rounding_mode="trunc"), f=torch.div(a, 2, rounding_mode="floor"), tdt=torch.div(a, 2, rounding_mode="trunc").dtype,
       u=torch.div(u, 4, rounding_mode="floor"), ud=u / 4, a_true_dt=(a / 2).dtype, fl=torch.div(a, 2.5, rounding_mode="floor"),
       fldt=torch.div(a, 2.5, rounding_mode="floor").dtype)
