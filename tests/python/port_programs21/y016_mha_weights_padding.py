import torch
import torch.nn as nn

mha = det(nn.MultiheadAttention(6, 2, batch_first=True), seed=1)
x = data(2, 4, 6, seed=2)
kpm = torch.tensor([[False, False, False, True], [False, False, True, True]])
out, w = mha(x, x, x, key_padding_mask=kpm)
out2, w2 = mha(x, x, x, key_padding_mask=kpm, average_attn_weights=False)
out3, w3 = mha(x, x, x, need_weights=False)
causal = torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1)
out4, w4 = mha(x, x, x, attn_mask=causal)
report(out=out, w=w, w2shape=list(w2.shape), w2=w2[1, 1], w3=w3, same=torch.allclose(w, w2.mean(1), atol=1e-6),
       o4=out4[0], w4=w4[1], o3=out3[1, 0])
