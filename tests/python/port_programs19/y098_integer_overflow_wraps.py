import torch
a = torch.tensor([2 ** 62], dtype=torch.int64)
b = torch.tensor([2 ** 31 - 1], dtype=torch.int32)
c = torch.tensor([127], dtype=torch.int8)
report(a=a * 4, b=b + 1, c=c + 1, cs=torch.tensor([100, 100], dtype=torch.int8).sum(dtype=torch.int8), neg=-torch.tensor([-2 ** 31], dtype=torch.int32), mul=c * c,
       u=torch.tensor([0], dtype=torch.uint8) - 1, i16=torch.tensor([32767], dtype=torch.int16) + torch.tensor([1], dtype=torch.int16))
