import torch
from torch.utils.data import ConcatDataset, DataLoader, TensorDataset, random_split

a = TensorDataset(torch.arange(6).float(), torch.zeros(6, dtype=torch.long))
b = TensorDataset(torch.arange(100, 104).float(), torch.ones(4, dtype=torch.long))
both = ConcatDataset([a, b])
train, val, test = random_split(both, [0.6, 0.2, 0.2], generator=torch.Generator().manual_seed(42))
train2, val2 = random_split(range(10), [7, 3], generator=torch.Generator().manual_seed(1))
idx_all = sorted(list(train.indices) + list(val.indices) + list(test.indices))
total = 0.0
for x, y in DataLoader(both, batch_size=4):
    total += (x * (1 + y)).sum().item()
report(lens=[len(train), len(val), len(test)], all=idx_all, cum=both.cumulative_sizes, item7=both[7][0], total=total,
       lens2=[len(train2), len(val2)], union=sorted(list(train2) + list(val2)))
