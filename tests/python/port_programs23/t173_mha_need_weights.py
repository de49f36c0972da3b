import torch
import torch.nn as nn

mha = det(nn.MultiheadAttention(8, 2, batch_first=True), seed=1)
q = data(2, 3, 8, seed=2)
kv = data(2, 4, 8, seed=3)
out, w = mha(q, kv, kv)
out2, w2 = mha(q, kv, kv, average_attn_weights=False)
out3, w3 = mha(q, kv, kv, need_weights=False)
kpm = torch.tensor([[False, False, True, True], [False, False, False, True]])
out4, w4 = mha(q, kv, kv, key_padding_mask=kpm)
causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)
out5, w5 = mha(q, q, q, attn_mask=causal)
report(out=out[0, 0], w=w.shape, w2=w2.shape, same=torch.allclose(w, w2.mean(1), atol=1e-6), w3=w3, close=torch.allclose(out, out3, atol=1e-5),
       w4=w4[0, 0], w5=w5[1], o5=out5[1, 0])
