import torch
from torch.utils.data import DataLoader, TensorDataset

ds = TensorDataset(torch.arange(12).float().view(6, 2), torch.arange(6))
g = torch.Generator()
g.manual_seed(7)
dl = DataLoader(ds, batch_size=4, shuffle=True, generator=g, num_workers=0, drop_last=False)
ep1 = [y for _, y in dl]
g.manual_seed(7)
ep2 = [y for _, y in dl]
ep3 = [y for _, y in dl]
report(same=[torch.equal(a, b) for a, b in zip(ep1, ep2)], all_seen=sorted(torch.cat(ep1).tolist()),
       sizes=[len(y) for y in ep3], n=len(dl))
