import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_sequence, pad_packed_sequence, unpack_sequence, unpad_sequence, pad_sequence, pack_padded_sequence
seqs = [data(3, 2, seed=1), data(5, 2, seed=2), data(1, 2, seed=3)]
packed = pack_sequence(seqs, enforce_sorted=False)
lstm = det(nn.LSTM(2, 3, batch_first=True))
out, (h, c) = lstm(packed)
unpacked = unpack_sequence(out)
padded, lens = pad_packed_sequence(out, batch_first=True, padding_value=-1.0)
p2 = pad_sequence(seqs, batch_first=False)
pk = pack_padded_sequence(p2, torch.tensor([3, 5, 1]), enforce_sorted=False)
back = unpad_sequence(p2, torch.tensor([3, 5, 1]))  # which transposes p2 in place
report(bs=packed.batch_sizes, si=packed.sorted_indices, ui=packed.unsorted_indices, data_shape=list(packed.data.shape), lens=lens, pad_tail=padded[2, 1:, 0],
       last=[u[-1] for u in unpacked], h=h[0], back=[list(b.shape) for b in back], same=torch.equal(pk.data, packed.data), is_packed=isinstance(out, nn.utils.rnn.PackedSequence), p2=list(p2.shape))
