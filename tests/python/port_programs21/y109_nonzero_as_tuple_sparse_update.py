import torch

grid = torch.tensor([[0, 2, 0], [1, 0, 3], [0, 0, 4]])
rows, cols = grid.nonzero(as_tuple=True)
vals = grid[rows, cols]
coo = torch.stack([rows, cols])
dense = torch.zeros(3, 3, dtype=torch.long)
dense[tuple(coo)] = vals * 10
sp = grid.to_sparse()
idx = torch.nonzero(grid > 1).squeeze(1)
w = torch.where(grid > 0)
report(rows=rows, cols=cols, vals=vals, dense=dense, spi=sp.indices(), spv=sp.values(), idx=idx, w=w,
       one_d=torch.tensor([0, 3, 0, 5]).nonzero(), one_d_t=torch.tensor([0, 3, 0, 5]).nonzero(as_tuple=True))
