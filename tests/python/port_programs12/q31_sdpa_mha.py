import torch
import torch.nn as nn
import torch.nn.functional as F
q = data(2, 2, 4, 8); k = data(2, 2, 5, 8, seed=3); v = data(2, 2, 5, 8, seed=4)
res = {}
res["plain"] = F.scaled_dot_product_attention(q, k, v)
bm = torch.ones(4, 5, dtype=torch.bool).tril(diagonal=1)
res["boolmask"] = F.scaled_dot_product_attention(q, k, v, attn_mask=bm)
fm = torch.zeros(4, 5).masked_fill(~bm, float("-inf"))
res["floatmask"] = torch.allclose(F.scaled_dot_product_attention(q, k, v, attn_mask=fm), res["boolmask"], atol=1e-6)
qq = data(2, 2, 5, 8, seed=5)
res["causal"] = F.scaled_dot_product_attention(qq, k, v, is_causal=True)
res["scale"] = F.scaled_dot_product_attention(q, k, v, scale=0.1)
mha = det(nn.MultiheadAttention(8, 2, batch_first=True), scale=0.3)
x = data(2, 5, 8, seed=6)
kpm = torch.tensor([[False] * 5, [False, False, False, True, True]])
o, w = mha(x, x, x, key_padding_mask=kpm)
o2, w2 = mha(x, x, x, key_padding_mask=kpm, need_weights=True, average_attn_weights=False)
o3, w3 = mha(x, x, x, attn_mask=nn.Transformer.generate_square_subsequent_mask(5), need_weights=False)
res.update(o=o, w=w, w2s=w2.shape, o3=o3, w3=w3)
mha2 = det(nn.MultiheadAttention(8, 2, kdim=4, vdim=6, bias=False), seed=2, scale=0.3)
o4, w4 = mha2(data(3, 2, 8, seed=7), data(5, 2, 4, seed=8), data(5, 2, 6, seed=9))
res.update(o4=o4, w4=w4, names=sorted(n for n, _ in mha2.named_parameters()))
q.requires_grad_()
F.scaled_dot_product_attention(q, k, v, attn_mask=bm).sum().backward()
res["qg"] = q.grad[0, 0]
dec = det(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True, norm_first=True), seed=3, scale=0.3)
res["dec"] = dec(x, data(2, 3, 8, seed=10), tgt_mask=nn.Transformer.generate_square_subsequent_mask(5), memory_key_padding_mask=torch.tensor([[False, False, True], [False, False, False]]))
report(**res)
