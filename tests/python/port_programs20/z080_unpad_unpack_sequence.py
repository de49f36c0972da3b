import torch
from torch.nn.utils.rnn import pad_sequence, unpad_sequence, pack_sequence, unpack_sequence, pad_packed_sequence

a, b, c = torch.tensor([1, 2, 3]), torch.tensor([4, 5]), torch.tensor([6])
padded = pad_sequence([a, b, c], batch_first=True)
un = unpad_sequence(padded, torch.tensor([3, 2, 1]), batch_first=True)
packed = pack_sequence([a, b, c])
up = unpack_sequence(packed)
left = pad_sequence([a, b, c], batch_first=True, padding_side="left")
report(padded=padded, un=un, up=up, bs=packed.batch_sizes, data=packed.data, left=left,
       tm=pad_sequence([a.float(), b.float()]), pp=pad_packed_sequence(packed, batch_first=True)[0])
