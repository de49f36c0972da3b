import torch

x = torch.tensor([1, 2, 3])
y = torch.tensor([4, 5])
gi = torch.meshgrid(x, y, indexing="ij")
gx = torch.meshgrid(x, y, indexing="xy")
ys, xs = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")
coords = torch.stack([xs, ys], dim=-1)
report(gi=gi, gx=gx, coords=coords, cp=torch.cartesian_prod(x, y), cp3=torch.cartesian_prod(x, y, torch.tensor([0])).shape,
       tri=torch.tril_indices(3, 3), tri_off=torch.tril_indices(4, 3, offset=-1), triu=torch.triu_indices(3, 4, 1),
       comb=torch.combinations(x, r=2), combr=torch.combinations(x, 2, with_replacement=True),
       m=data(3, 3, seed=1)[tuple(torch.triu_indices(3, 3))])
