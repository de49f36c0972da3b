import math
import torch
from torch.utils.data import IterableDataset, DataLoader, get_worker_info, ChainDataset


class Stream(IterableDataset):
    def __init__(self, start, end):
        super().__init__()
        self.start, self.end = start, end

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            lo, hi = self.start, self.end
        else:
            per = int(math.ceil((self.end - self.start) / float(info.num_workers)))
            lo = self.start + info.id * per
            hi = min(lo + per, self.end)
        for i in range(lo, hi):
            yield torch.tensor([i, i * i]), i % 3


class Lines(IterableDataset):
    def __init__(self, lines):
        self.lines = lines

    def __iter__(self):
        for ln in self.lines:
            toks = ln.split()
            yield torch.tensor([len(t) for t in toks])


dl = DataLoader(Stream(3, 10), batch_size=3)
batches = [(x.tolist(), y.tolist()) for x, y in dl]
chain = list(ChainDataset([Stream(0, 2), Stream(5, 6)]))
lines = DataLoader(Lines(["a bb ccc", "dddd e", "ff g hh"]), batch_size=None)
nb = DataLoader(Stream(0, 4), batch_size=None)
report(batches=batches, chain=[(x.tolist(), y) for x, y in chain], lines=[t.tolist() for t in lines],
       nb=[x.tolist() for x, _ in nb], worker=get_worker_info() is None)
