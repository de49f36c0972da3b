import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence

seqs = [data(5, 3, seed=1), data(2, 3, seed=2), data(4, 3, seed=3)]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
lstm = det(nn.LSTM(3, 4, batch_first=True, bidirectional=True))
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
out, (h, c) = lstm(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True, padding_value=0.0)
ps = pack_sequence(seqs, enforce_sorted=False)
gru = det(nn.GRU(3, 2))
o2, h2 = gru(ps)
u2, l2 = pad_packed_sequence(o2, total_length=6)
report(padded_shape=padded.shape, batch_sizes=packed.batch_sizes, sorted_idx=packed.sorted_indices,
       unsorted=packed.unsorted_indices, unpacked=unpacked, lens=lens, h=h, c=c, h2=h2, u2_shape=u2.shape, u2_sum=u2.sum(),
       data_shape=packed.data.shape)
