import torch
from torch.utils.data import IterableDataset, DataLoader, get_worker_info


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        assert info is None
        for i in range(self.n):
            yield torch.tensor([i, i * i])


dl = DataLoader(Stream(7), batch_size=3)
out = [b for b in dl]
dl2 = DataLoader(Stream(5), batch_size=None)
items = [t.tolist() for t in dl2]
report(out=out, items=items, nb=len(out))
