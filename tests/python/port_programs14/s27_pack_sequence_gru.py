import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_sequence, pad_packed_sequence

gru = det(nn.GRU(2, 3, batch_first=True, num_layers=1, bidirectional=True))
seqs = [data(4, 2, seed=1), data(3, 2, seed=2), data(1, 2, seed=3)]
packed = pack_sequence(seqs)
out, h = gru(packed)
padded, lens = pad_packed_sequence(out, batch_first=True, total_length=5)
unsorted = pack_sequence([seqs[2], seqs[0], seqs[1]], enforce_sorted=False)
out2, h2 = gru(unsorted)
p2, l2 = pad_packed_sequence(out2, batch_first=True)
report(bs=packed.batch_sizes, data=packed.data.shape, padded=padded.shape, lens=lens, h=h, last=padded[1, 2], sidx=unsorted.sorted_indices,
       uidx=unsorted.unsorted_indices, same=torch.allclose(p2[1], padded[0, :4]), h2=h2[:, 0])
