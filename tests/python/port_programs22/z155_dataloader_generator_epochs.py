import torch
from torch.utils.data import DataLoader, TensorDataset

ds = TensorDataset(torch.arange(10))
g = torch.Generator()
g.manual_seed(3)
loader = DataLoader(ds, batch_size=4, shuffle=True, generator=g)
e1 = torch.cat([b[0] for b in loader])
e2 = torch.cat([b[0] for b in loader])
g.manual_seed(3)
e1b = torch.cat([b[0] for b in loader])
report(e1_perm=sorted(e1.tolist()) == list(range(10)), differ=not torch.equal(e1, e2), repro=torch.equal(e1, e1b), n=len(loader),
       sizes=[len(b[0]) for b in loader])
