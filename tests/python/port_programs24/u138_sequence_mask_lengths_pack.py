import torch
import torch.nn as nn

lengths = torch.tensor([5, 2, 4])
B, T = 3, 5
mask = torch.arange(T).expand(B, T) < lengths.unsqueeze(1)
x = data(B, T, 2) * mask.unsqueeze(-1)
mean_pool = x.sum(1) / lengths.unsqueeze(1)
max_pool = x.masked_fill(~mask.unsqueeze(-1), float("-inf")).max(1).values
last = x[torch.arange(B), lengths - 1]
lstm = det(nn.LSTM(2, 3, batch_first=True, bidirectional=True))
packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
out, (h, c) = lstm(packed)
padded, lens = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=6)
report(mean_pool=mean_pool, max_pool=max_pool, last=last, padded_shape=padded.shape, lens=lens, h_fw=h[0], h_bw=h[1], tail_zero=padded[1, 2:].abs().sum().item(),
       sorted_idx=packed.sorted_indices, bs=packed.batch_sizes)
