import torch
from torch import nn
from torch.nn.utils.rnn import (pack_sequence, unpack_sequence, pad_sequence, unpad_sequence, pad_packed_sequence,
                                pack_padded_sequence, PackedSequence)

seqs = [torch.tensor([1., 2., 3.]), torch.tensor([4., 5.]), torch.tensor([6.])]
packed = pack_sequence(seqs)
r = {"data": packed.data, "bs": packed.batch_sizes, "sorted": packed.sorted_indices}
r["unpacked"] = [s.tolist() for s in unpack_sequence(packed)]
padded = pad_sequence(seqs, batch_first=True, padding_value=-1.0)
r["padded"] = padded
r["unpadded"] = [s.tolist() for s in unpad_sequence(padded, torch.tensor([3, 2, 1]), batch_first=True)]
uns = pack_sequence([torch.tensor([1.]), torch.tensor([2., 3., 4.]), torch.tensor([5., 6.])], enforce_sorted=False)
r["uns_sorted"] = uns.sorted_indices
r["uns_unsorted"] = uns.unsorted_indices
out, lens = pad_packed_sequence(uns, batch_first=False, padding_value=0.0)
r["pp"] = out
r["lens"] = lens
r["left_pad"] = pad_sequence(seqs, batch_first=True, padding_side="left") if "padding_side" in pad_sequence.__code__.co_varnames else padded
gru = det(nn.GRU(1, 2, batch_first=True, bidirectional=True))
x = pad_sequence([s.unsqueeze(-1) for s in seqs], batch_first=True)
pk = pack_padded_sequence(x, torch.tensor([3, 2, 1]), batch_first=True)
o, h = gru(pk)
r["is_packed"] = isinstance(o, PackedSequence)
r["h"] = h
o_pad, _ = pad_packed_sequence(o, batch_first=True)
r["o_last_valid"] = o_pad[1, 1]
r["o_pad_zero"] = o_pad[2, 1:].abs().sum()
r["to"] = pk.to(torch.float64).data.dtype
report(**r)
