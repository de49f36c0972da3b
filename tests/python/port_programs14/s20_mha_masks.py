import torch
import torch.nn as nn

mha = det(nn.MultiheadAttention(8, 2, batch_first=True, bias=True, add_bias_kv=False), scale=0.3)
q = data(2, 3, 8)
kv = data(2, 4, 8, seed=7)
key_pad = torch.tensor([[False, False, True, True], [False, False, False, False]])
attn_mask = torch.zeros(3, 4)
attn_mask[0, 1] = float("-inf")
out, w = mha(q, kv, kv, key_padding_mask=key_pad, attn_mask=attn_mask)
out2, w2 = mha(q, kv, kv, key_padding_mask=key_pad, need_weights=True, average_attn_weights=False)
bmask = torch.tensor([[False, True, False, False]] * 3)
out3, _ = mha(q, kv, kv, attn_mask=bmask)
m3 = torch.zeros(4, 3, 4)
m3[:, 2, 0] = -1e9
out4, w4 = mha(q, kv, kv, attn_mask=m3)
report(out=out[0], w=w, w2=w2.shape, w2s=w2.sum(-1), out3=out3[1, 0], w4=w4[:, 2], names=[n for n, _ in mha.named_parameters()])
