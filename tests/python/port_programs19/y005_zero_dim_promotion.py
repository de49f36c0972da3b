import torch
x = torch.tensor([1, 2], dtype=torch.int32)
z = torch.tensor(2.5)
zi = torch.tensor(7)
h = torch.tensor([1.0, 2.0], dtype=torch.float16)
report(a=(x + z).dtype, b=(x + zi).dtype, c=(h + torch.tensor(1.0, dtype=torch.float64)).dtype,
       d=(h + z).dtype, e=(torch.tensor([1, 2], dtype=torch.uint8) + torch.tensor(-1)).dtype,
       f=(torch.tensor([True]) + zi).dtype, g=(x * torch.tensor(1.5, dtype=torch.float64)).dtype, v=x + z)
