import torch
import torch.nn as nn

mha = det(nn.MultiheadAttention(8, 2, batch_first=True))
q = data(2, 3, 8)
kv = data(2, 5, 8, seed=3)
kpm = torch.tensor([[False, False, False, True, True], [False] * 5])
out, w = mha(q, kv, kv, key_padding_mask=kpm)
out2, w2 = mha(q, kv, kv, key_padding_mask=kpm, average_attn_weights=False)
am = torch.triu(torch.ones(3, 3, dtype=torch.bool), 1)
out3, _ = mha(q, q, q, attn_mask=am, need_weights=False)
fmask = torch.zeros(3, 5)
fmask[:, 0] = float("-inf")
out4, w4 = mha(q, kv, kv, attn_mask=fmask)
report(out=out, w=w, w2_shape=w2.shape, out3=out3, w3=_ is None, w4=w4[:, :, 0], names=[n for n, _ in mha.named_parameters()])
