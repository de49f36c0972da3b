import torch
import torch.nn as nn

d = 12
layer = nn.TransformerDecoderLayer(d, 3, dim_feedforward=24, dropout=0.0, batch_first=True, norm_first=True)
dec = det(nn.TransformerDecoder(layer, 2, norm=nn.LayerNorm(d)), scale=0.15)
tgt = data(2, 5, d)
mem = data(2, 4, d, seed=6)
causal = nn.Transformer.generate_square_subsequent_mask(5)
mem_pad = torch.tensor([[False, False, False, True], [False, False, False, False]])
out = dec(tgt, mem, tgt_mask=causal, memory_key_padding_mask=mem_pad)
# causality: changing the last target step leaves earlier steps alone
tgt2 = tgt.clone()
tgt2[:, -1] += 1.0
out2 = dec(tgt2, mem, tgt_mask=causal, memory_key_padding_mask=mem_pad)
bool_mask = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)
out3 = dec(tgt, mem, tgt_mask=bool_mask, memory_key_padding_mask=mem_pad)
report(causal=causal, out=out[0, :, 0], same=torch.allclose(out[:, :-1], out2[:, :-1], atol=1e-6),
       bool_same=torch.allclose(out, out3, atol=1e-6), mdt=causal.dtype)
