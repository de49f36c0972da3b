import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader


def collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = pad_sequence(seqs, batch_first=True, padding_value=-1)
    mask = torch.arange(padded.size(1))[None, :] < lengths[:, None]
    return padded, lengths, mask, torch.tensor(labels)


samples = [(torch.arange(n) + 10 * n, n % 2) for n in [3, 1, 4, 2, 5]]
dl = DataLoader(samples, batch_size=2, collate_fn=collate)
out = []
for padded, lengths, mask, labels in dl:
    mean = (padded.float() * mask).sum(1) / lengths
    out.append((padded, lengths, mask, labels, mean))
tm = pad_sequence([torch.ones(2, 3), torch.ones(1, 3) * 2])
report(b0=out[0][0], mask0=out[0][2], means=[o[4] for o in out], last=out[-1][0], labels=out[1][3], tm_shape=list(tm.shape), tm=tm[:, 1, 0])
