import torch
i = torch.tensor([1, 2])
f = torch.tensor([0.5])
h = torch.tensor([1.0], dtype=torch.float16)
report(c1=torch.cat([i, f]), c1dt=torch.cat([i, f]).dtype, c2dt=torch.cat([h, f]).dtype, c3=torch.cat([torch.tensor([True]), i]).dtype, c4=torch.cat([i, torch.tensor([])]).dtype,
       c5=torch.cat([torch.zeros(0), torch.ones(2, 3)], 0).shape if False else torch.cat([torch.zeros(0, 3), torch.ones(2, 3)]).shape, s=torch.stack([i, i * 2], 1),
       hs=torch.hstack([i, i]), vs=torch.vstack([i, i]).shape, ds=torch.dstack([i, i]).shape, cs=torch.column_stack([i, i]), rs=torch.row_stack([i, i]).shape if hasattr(torch, "row_stack") else [2, 2])
