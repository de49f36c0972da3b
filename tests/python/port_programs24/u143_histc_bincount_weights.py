import torch

v = torch.tensor([0.0, 0.25, 0.5, 1.0, 1.0, -0.5, 2.0])
w64 = torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 1.0], dtype=torch.float64)
ids = torch.tensor([0, 2, 2, 3, 0, 1, 3])
report(histc=torch.histc(v, bins=4, min=0, max=1), histc_auto=torch.histc(v, bins=3), bc=torch.bincount(ids), bc_w=torch.bincount(ids, weights=w64),
       bc_w_dtype=torch.bincount(ids, weights=w64).dtype, bc_wf=torch.bincount(ids, weights=w64.float()).dtype, bc_min=torch.bincount(ids, minlength=6),
       hist=list(torch.histogram(v, bins=3, range=(0.0, 1.5))), hist_edges=list(torch.histogram(v, bins=torch.tensor([-1.0, 0.0, 1.0, 2.0]))),
       hist_w=torch.histogram(v, bins=2, weight=w64.float()).hist, hist_density=torch.histogram(v, bins=2, density=True).hist)
