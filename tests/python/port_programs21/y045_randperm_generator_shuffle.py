import torch
from torch.utils.data import DataLoader, TensorDataset, random_split

g = torch.Generator().manual_seed(123)
p = torch.randperm(10, generator=g)
x = torch.arange(20.0).view(10, 2)
shuffled = x[torch.randperm(10, generator=torch.Generator().manual_seed(5))]
train, val = random_split(TensorDataset(x), [7, 3], generator=torch.Generator().manual_seed(42))
dl = DataLoader(TensorDataset(x), batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
report(p=p, shuffled=shuffled[:, 0], train=list(train.indices), val=list(val.indices),
       batches=[b[0][:, 0].tolist() for b in dl], frac=[len(s) for s in random_split(range(10), [0.5, 0.3, 0.2])])
