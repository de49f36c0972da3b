import torch
import torch.nn as nn

seqs = [[7, 3], [5, 2, 9, 4]]
pad = 0
L = max(map(len, seqs))
ids = torch.tensor([[pad] * (L - len(s)) + s for s in seqs])
attn = (ids != pad).long()
position_ids = attn.long().cumsum(-1) - 1
position_ids.masked_fill_(attn == 0, 1)
wpe = det(nn.Embedding(8, 3), seed=2)
wte = det(nn.Embedding(10, 3), seed=3)
h = wte(ids) + wpe(position_ids)
last = h[:, -1]
nxt = torch.tensor([[1], [2]])
ids2 = torch.cat([ids, nxt], -1)
attn2 = torch.cat([attn, attn.new_ones((attn.shape[0], 1))], -1)
pos2 = attn2.cumsum(-1)[:, -1:] - 1
report(ids=ids, position_ids=position_ids, last=last, attn2=attn2, pos2=pos2)
