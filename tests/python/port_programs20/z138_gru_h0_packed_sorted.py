import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

gru = det(nn.GRU(2, 3, num_layers=2, batch_first=True))
x = data(3, 4, 2)
lengths = torch.tensor([4, 3, 1])
h0 = data(2, 3, 3, seed=7)
packed = pack_padded_sequence(x, lengths, batch_first=True)
out, hn = gru(packed, h0)
pad, lens = pad_packed_sequence(out, batch_first=True)
out_full, hn_full = gru(x, h0)
report(pad=pad, hn=hn, lens=lens, same_first=torch.allclose(pad[0], out_full[0], atol=1e-6), diff_last=torch.allclose(hn[-1, 2], out_full[2, 0], atol=1e-6))
