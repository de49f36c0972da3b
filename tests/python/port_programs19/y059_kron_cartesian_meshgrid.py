import torch
a = torch.tensor([[1, 2], [3, 4]])
b = torch.tensor([[0, 1], [1, 0]])
gx, gy = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="ij")
hx, hy = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
report(kron=torch.kron(a, b), cp=torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])), cp1=torch.cartesian_prod(torch.tensor([1, 2])),
       gx=gx, gy=gy, hx=hx, hy=hy, comb=torch.combinations(torch.tensor([1, 2, 3])), combr=torch.combinations(torch.tensor([1, 2]), with_replacement=True),
       bd=torch.block_diag(a, torch.tensor([[9]])), vdr=torch.vander(torch.tensor([1, 2, 3]), N=3))
