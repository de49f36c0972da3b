import torch
x = torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, 2.675, 1234.5678, -0.25])
report(r=torch.round(x), r2=torch.round(x, decimals=2), rm1=torch.round(x, decimals=-1), fl=x.floor(), ce=x.ceil(),
       tr=x.trunc(), fr=x.frac(), fix=torch.fix(x), ri=torch.round(torch.tensor([3, -4])), ridt=torch.round(torch.tensor([3])).dtype)
