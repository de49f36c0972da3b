import torch
import torch.nn as nn

emb = nn.Embedding(10, 3, padding_idx=0)
gru = nn.GRU(3, 4, num_layers=2, batch_first=True)
det(emb)
det(gru, seed=1)
tok = torch.tensor([[1, 4, 2, 0, 0], [3, 3, 3, 3, 9], [5, 0, 0, 0, 0]])
lengths = (tok != 0).sum(1)
packed = nn.utils.rnn.pack_padded_sequence(emb(tok), lengths.cpu(), batch_first=True, enforce_sorted=False)
out, h = gru(packed)
out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
last = out[torch.arange(3), lengths - 1]
h.sum().backward()
report(last=last, h=h[-1], eq=torch.allclose(last, h[-1], atol=1e-6), g=gru.weight_hh_l1.grad[0], eg=emb.weight.grad[0])
