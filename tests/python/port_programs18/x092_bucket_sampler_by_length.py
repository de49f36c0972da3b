import torch
from torch.utils.data import DataLoader, Sampler


class BucketSampler(Sampler):
    def __init__(self, lengths, batch_size):
        self.lengths, self.bs = lengths, batch_size

    def __iter__(self):
        idx = sorted(range(len(self.lengths)), key=lambda i: self.lengths[i])
        batches = [idx[i:i + self.bs] for i in range(0, len(idx), self.bs)]
        for b in batches:
            yield b

    def __len__(self):
        return (len(self.lengths) + self.bs - 1) // self.bs


seqs = [torch.arange(n) for n in [5, 2, 7, 3, 3, 6, 1]]
lens = [len(s) for s in seqs]
dl = DataLoader(seqs, batch_sampler=BucketSampler(lens, 3),
                collate_fn=lambda b: torch.nn.utils.rnn.pad_sequence(b, batch_first=True, padding_value=-1))
out = list(dl)
report(shapes=[list(b.shape) for b in out], first=out[0], n=len(dl))
