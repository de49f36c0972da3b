import torch
import torch.nn as nn
from torch.utils.data import Sampler, DataLoader, Dataset
class Texts(Dataset):
    def __init__(self):
        self.data = [torch.arange(1, n + 1) for n in [5, 2, 7, 3, 6, 1, 4, 2]]
    def __len__(self): return len(self.data)
    def __getitem__(self, i): return self.data[i], len(self.data[i]) % 2
class BucketSampler(Sampler):
    def __init__(self, lengths, batch_size):
        self.lengths, self.batch_size = lengths, batch_size
    def __iter__(self):
        order = sorted(range(len(self.lengths)), key=lambda i: self.lengths[i])
        batches = [order[i:i + self.batch_size] for i in range(0, len(order), self.batch_size)]
        for b in batches:
            yield b
    def __len__(self):
        return (len(self.lengths) + self.batch_size - 1) // self.batch_size
def collate(batch):
    seqs, labels = zip(*batch)
    lens = torch.tensor([len(s) for s in seqs])
    padded = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=0)
    return padded, lens, torch.tensor(labels)
ds = Texts()
dl = DataLoader(ds, batch_sampler=BucketSampler([len(d) for d, _ in ds], 3), collate_fn=collate)
model = det(nn.GRU(1, 3, batch_first=True), scale=0.4); head = det(nn.Linear(3, 2), seed=2)
opt = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.1)
out = []
for padded, lens, labels in dl:
    packed = nn.utils.rnn.pack_padded_sequence(padded.unsqueeze(-1).float() / 7, lens, batch_first=True, enforce_sorted=False)
    _, h = model(packed)
    loss = nn.functional.cross_entropy(head(h[-1]), labels)
    opt.zero_grad(); loss.backward(); opt.step()
    out.append([padded.shape, lens, loss.item()])
report(out=out, n=len(dl))
