import torch
import torch.nn as nn

mha = det(nn.MultiheadAttention(6, 2, batch_first=True, bias=True, add_bias_kv=True))
q = data(2, 3, 6)
kv = data(2, 4, 6, seed=2)
kpm = torch.tensor([[False, False, True, True], [False, False, False, False]])
out, w = mha(q, kv, kv, key_padding_mask=kpm, average_attn_weights=False)
out2, w2 = mha(q, kv, kv, key_padding_mask=kpm)
attn_mask = torch.zeros(3, 4)
attn_mask[:, 0] = float("-inf")
out3, w3 = mha(q, kv, kv, attn_mask=attn_mask)
out4, none = mha(q, kv, kv, need_weights=False)
out.sum().backward()
report(out=out[1, 0].detach(), w=w.shape, w_row=w[0, 1, 0].detach(), w2=w2[0, 2].detach(), w3=w3[1, 0].detach(), none=none is None,
       same=torch.allclose(out, out2), g=mha.bias_k.grad.flatten()[:3])
