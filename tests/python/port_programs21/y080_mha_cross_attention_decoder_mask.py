import torch
import torch.nn as nn

self_attn = det(nn.MultiheadAttention(8, 4, batch_first=True), seed=1)
cross = det(nn.MultiheadAttention(8, 4, batch_first=True), seed=2)
tgt = data(2, 3, 8, seed=3)
mem = data(2, 5, 8, seed=4)
causal = nn.Transformer.generate_square_subsequent_mask(3)
mem_pad = torch.tensor([[False] * 5, [False, False, False, True, True]])
h, w1 = self_attn(tgt, tgt, tgt, attn_mask=causal, is_causal=True)
o, w2 = cross(h, mem, mem, key_padding_mask=mem_pad)
float_pad = torch.zeros(2, 5).masked_fill(mem_pad, float("-inf"))
o2, _ = cross(h, mem, mem, key_padding_mask=float_pad)
report(w1=w1[0], w2=w2[1], o=o[1], same=torch.allclose(o, o2, atol=1e-6), causal=causal)
