import math
import torch
from torch.utils.data import IterableDataset, DataLoader, get_worker_info, Dataset
class RangeStream(IterableDataset):
    def __init__(self, start, end):
        super().__init__(); self.start, self.end = start, end
    def __iter__(self):
        info = get_worker_info()
        if info is None:
            lo, hi = self.start, self.end
        else:
            per = int(math.ceil((self.end - self.start) / float(info.num_workers)))
            lo = self.start + info.id * per; hi = min(lo + per, self.end)
        for i in range(lo, hi):
            yield torch.tensor([float(i), float(i * i)])
dl = DataLoader(RangeStream(0, 10), batch_size=4, num_workers=0, pin_memory=True, persistent_workers=False)
batches = [b for b in dl]
class Squares(Dataset):
    def __len__(self): return 7
    def __getitem__(self, i): return torch.tensor(float(i)), torch.tensor(i * i)
dl2 = DataLoader(Squares(), batch_size=3, shuffle=False, drop_last=False, prefetch_factor=None)
b2 = [(x.tolist(), y.tolist(), str(y.dtype)) for x, y in dl2]
lens = [len(dl2), len(DataLoader(Squares(), batch_size=3, drop_last=True))]
s = DataLoader(Squares(), batch_size=2, sampler=torch.utils.data.SubsetRandomSampler([0, 2, 4], generator=torch.Generator().manual_seed(1)))
got = sorted(sum([x.tolist() for x, _ in s], []))
chained = list(torch.utils.data.ChainDataset([RangeStream(0, 2), RangeStream(5, 6)]))
report(batches=batches, b2=b2, lens=lens, got=got, chained=[c.tolist() for c in chained], n=sum(len(b) for b in batches))
