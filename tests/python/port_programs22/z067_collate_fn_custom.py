import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

seqs = [torch.arange(1, n + 1) for n in (3, 5, 2, 4, 1)]
labels = [0, 1, 1, 0, 1]
samples = list(zip(seqs, labels))

def collate(batch):
    xs, ys = zip(*batch)
    lengths = torch.tensor([len(x) for x in xs])
    padded = pad_sequence(xs, batch_first=True, padding_value=0)
    mask = torch.arange(padded.size(1))[None, :] < lengths[:, None]
    return {"input_ids": padded, "attention_mask": mask.long(), "labels": torch.tensor(ys), "lengths": lengths}

batches = list(DataLoader(samples, batch_size=2, collate_fn=collate))
def sort_collate(batch):
    batch = sorted(batch, key=lambda s: len(s[0]), reverse=True)
    return pad_sequence([b[0] for b in batch], padding_value=-1), [b[1] for b in batch]

sc = next(iter(DataLoader(samples, batch_size=3, collate_fn=sort_collate)))
report(b0=batches[0], b2=batches[2], n=len(batches), sc=sc, left=pad_sequence([s.flip(0) for s in seqs[:3]], batch_first=True).flip(1))
