import torch
report(a1=torch.arange(0, 1, 0.1), a1n=len(torch.arange(0, 1, 0.1)), a2=torch.arange(1, 2.5, 0.5), a3=torch.arange(-1.0, 1.0, 0.25).dtype, a4=torch.arange(5).dtype,
       a5=torch.arange(0.5, 3), a6=torch.arange(10, 0, -3), l1=torch.linspace(0, 1, 5), l2=torch.linspace(-1, 1, 1), l3=torch.linspace(0, 10, 4, dtype=torch.int64),
       lg=torch.logspace(0, 2, 3), lg2=torch.logspace(0, 3, 4, base=2), l0=torch.linspace(0, 1, 0).shape, a7=torch.arange(0, 0.3, 0.1).shape)
