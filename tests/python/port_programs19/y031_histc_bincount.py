import torch
x = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 2.0, 3.5, -1.0])
report(h=torch.histc(x, bins=4, min=0, max=2), h2=torch.histc(x, bins=3), bc=torch.bincount(torch.tensor([0, 1, 1, 3, 3, 3])),
       bcw=torch.bincount(torch.tensor([0, 2, 2]), weights=torch.tensor([0.5, 1.0, 2.0])), bcm=torch.bincount(torch.tensor([1]), minlength=4),
       bce=torch.bincount(torch.tensor([], dtype=torch.int64)), hd=torch.histc(x, bins=4, min=0, max=2).dtype,
       hist=torch.histogram(x, bins=4).hist, edges=torch.histogram(x, bins=4).bin_edges)
