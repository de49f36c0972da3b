import torch
x = torch.tensor([[3, 1, 2], [9, 7, 8]])
s0 = x.sort(0, descending=True)
b = torch.tensor([True, False, True, False])
report(s0v=s0.values, s0i=s0.indices, bs=b.sort().values, bsi=b.sort(stable=True).indices, asd=x.argsort(dim=1, descending=True), hs=torch.sort(torch.tensor([1.0, 2.0], dtype=torch.float16), descending=True).values,
       u8=torch.sort(torch.tensor([200, 3, 100], dtype=torch.uint8)).values, i8=torch.sort(torch.tensor([-100, 3, 100], dtype=torch.int8)).indices)
