import torch
import torch.nn as nn

mha = det(nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True))
x = data(2, 5, 8)
pad = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])
out, w = mha(x, x, x, key_padding_mask=pad)
out2, w2 = mha(x, x, x, key_padding_mask=pad, average_attn_weights=False)
causal = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)
out3, _ = mha(x, x, x, attn_mask=causal, need_weights=False)
floatmask = torch.zeros(5, 5).masked_fill(causal, float("-inf"))
out4, w4 = mha(x, x, x, attn_mask=floatmask)
kdim = det(nn.MultiheadAttention(8, 4, kdim=6, vdim=3, batch_first=True), seed=3)
q = data(2, 4, 8, seed=4)
k = data(2, 5, 6, seed=5)
v = data(2, 5, 3, seed=6)
o5, w5 = kdim(q, k, v)
report(out=out[0, 0], w_pad=w[0, :, 3:], w2_shape=w2.shape, same_causal=torch.allclose(out3, out4, atol=1e-6),
       w4_row=w4[1, 0], o5=o5[1, 3], w5_sum=w5.sum(-1), names=[n for n, _ in kdim.named_parameters()])
