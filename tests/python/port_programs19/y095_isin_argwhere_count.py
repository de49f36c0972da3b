import torch
x = torch.tensor([[1, 2, 3], [4, 2, 1]])
report(isin=torch.isin(x, torch.tensor([2, 4])), isinv=torch.isin(x, torch.tensor([2, 4]), invert=True), isins=torch.isin(x, 1), aw=torch.argwhere(x > 1),
       cnz=torch.count_nonzero(x - 2, dim=1), nzs=torch.nonzero(x == 2).shape)
