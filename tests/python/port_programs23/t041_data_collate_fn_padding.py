import torch
from torch.utils.data import Dataset, DataLoader
from torch.nn.utils.rnn import pad_sequence


class SeqDataset(Dataset):
    def __init__(self):
        self.seqs = [list(range(1, 2 + i % 4)) for i in range(7)]
        self.labels = [i % 2 for i in range(7)]

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, idx):
        return torch.tensor(self.seqs[idx]), self.labels[idx]


def collate_batch(batch):
    label_list, text_list, lengths = [], [], []
    for text, label in batch:
        label_list.append(label)
        text_list.append(text)
        lengths.append(text.size(0))
    label_list = torch.tensor(label_list, dtype=torch.int64)
    lengths = torch.tensor(lengths)
    return pad_sequence(text_list, batch_first=True, padding_value=0), label_list, lengths


dl = DataLoader(SeqDataset(), batch_size=3, shuffle=False, collate_fn=collate_batch)
out = [list(b) for b in dl]
default = next(iter(DataLoader(SeqDataset(), batch_size=1)))
report(out=out, default=list(default), n=len(dl))
