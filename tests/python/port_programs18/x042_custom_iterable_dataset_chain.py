import torch
from torch.utils.data import ChainDataset, ConcatDataset, DataLoader, IterableDataset, TensorDataset


class Counter(IterableDataset):
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        for i in range(self.start, self.end):
            yield torch.tensor([i, i * i])


dl = DataLoader(Counter(0, 5), batch_size=2)
chained = list(ChainDataset([Counter(0, 2), Counter(10, 12)]))
cd = ConcatDataset([TensorDataset(torch.arange(3)), TensorDataset(torch.arange(10, 14))])
report(batches=[b for b in dl], chained=chained, cd_len=len(cd), cd5=cd[5][0], cum=cd.cumulative_sizes)
