import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

ds = TensorDataset(torch.arange(10))
s0 = DistributedSampler(ds, num_replicas=3, rank=0, shuffle=False)
s2 = DistributedSampler(ds, num_replicas=3, rank=2, shuffle=False, drop_last=True)
s1 = DistributedSampler(ds, num_replicas=2, rank=1, shuffle=True, seed=5)
s1.set_epoch(1)
e1 = list(s1)
s1.set_epoch(1)
report(s0=list(s0), s2=list(s2), n0=len(s0), n2=len(s2), same=e1 == list(s1), n1=len(e1),
       dl=[b[0] for b in DataLoader(ds, batch_size=2, sampler=s0)])
