import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence, unpad_sequence

seqs = [data(3, 2, seed=1), data(5, 2, seed=2), data(2, 2, seed=3)]
lens = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True, padding_value=0.0)
lstm = det(nn.LSTM(2, 3, batch_first=True, bidirectional=True))
packed = pack_padded_sequence(padded, lens, batch_first=True, enforce_sorted=False)
out, (h, c) = lstm(packed)
un, ul = pad_packed_sequence(out, batch_first=True, total_length=6)
ps = pack_sequence(seqs, enforce_sorted=False)
report(bs=packed.batch_sizes, si=packed.sorted_indices, ui=packed.unsorted_indices, un=un[2], ul=ul, h=h[1], c=c[0],
       data_eq=torch.equal(ps.data, packed.data), unpad=[list(t.shape) for t in unpad_sequence(padded, lens, batch_first=True)], us=list(un.shape))
