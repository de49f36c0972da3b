import torch
from torch.utils.data import ConcatDataset, Subset, TensorDataset, DataLoader, Dataset

class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor([float(i * i)]), torch.tensor(i % 2)

a = TensorDataset(torch.arange(4.).view(4, 1), torch.tensor([0, 1, 0, 1]))
b = Squares(5)
cat = ConcatDataset([a, b])
sub = Subset(cat, [0, 5, 8, 3])
loader = DataLoader(sub, batch_size=3)
batches = [(x, y) for x, y in loader]
report(len=len(cat), cum=cat.cumulative_sizes, item6=cat[6], neg=cat[-1], sub_len=len(sub), sub_item=sub[1],
       batches=batches, idx=sub.indices, nested=len(Subset(sub, [1, 2])), nested_item=Subset(sub, [1, 2])[1])
