import torch
import torch.nn as nn

mha = det(nn.MultiheadAttention(8, 2, batch_first=True, dropout=0.0))
q = data(2, 3, 8, seed=1)
kv = data(2, 5, 8, seed=2)
kpm = torch.tensor([[False, False, False, True, True], [False] * 5])
out, w = mha(q, kv, kv, key_padding_mask=kpm)
out2, w2 = mha(q, kv, kv, key_padding_mask=kpm, average_attn_weights=False)
am = torch.zeros(3, 5)
am[:, 0] = float("-inf")
out3, w3 = mha(q, kv, kv, attn_mask=am, need_weights=True)
out.sum().backward()
report(out=out[0], w=w[0], w2s=list(w2.shape), w2=w2[1, 1], out3=out3[1, 0], w3=w3[0, :, 0], g=mha.out_proj.weight.grad[0])
