import torch
import torch.nn as nn
mha = nn.MultiheadAttention(embed_dim=8, num_heads=2, kdim=5, vdim=6, batch_first=True)
det(mha, 0, 0.3)
q = data(2, 3, 8); k = data(2, 4, 5, seed=3); v = data(2, 4, 6, seed=4)
pad = torch.tensor([[False, False, True, True], [False, False, False, False]])
out, w = mha(q, k, v, key_padding_mask=pad, need_weights=True, average_attn_weights=False)
out2, w2 = mha(q, k, v, key_padding_mask=pad)
attn_mask = torch.tensor([[0.0, -1.0, 0.0, 0.0], [0.0, 0.0, -2.0, 0.0], [0.0, 0.0, 0.0, 0.0]])
out3, _ = mha(q, k, v, attn_mask=attn_mask, need_weights=False)
self_mha = det(nn.MultiheadAttention(8, 4, dropout=0.0, bias=False), 1, 0.3)
s, sw = self_mha(q.transpose(0, 1), q.transpose(0, 1), q.transpose(0, 1), attn_mask=torch.ones(3, 3, dtype=torch.bool).triu(1))
report(w=w[0, 1], wshape=list(w.shape), w2=w2[0], out=out[1, 0], out3=out3[0, 0], s=s[-1, 0], sw=sw[0], names=sorted(n for n, _ in mha.named_parameters()))
