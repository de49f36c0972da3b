import torch
import torch.nn as nn

mha = det(nn.MultiheadAttention(6, 2, batch_first=True), scale=0.3)
x = data(2, 4, 6, seed=1)
kpm = torch.tensor([[False, False, True, True], [False, False, False, False]])
out, w = mha(x, x, x, key_padding_mask=kpm)
out2, w2 = mha(x, x, x, key_padding_mask=kpm, average_attn_weights=False)
causal = nn.Transformer.generate_square_subsequent_mask(4)
out3, _ = mha(x, x, x, attn_mask=causal, need_weights=False)
report(out=out[0], w=w[0], w2s=list(w2.shape), causal=causal, out3=out3[1, :2], w3=_ is None)
