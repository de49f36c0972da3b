import torch
import torch.nn as nn
dec_layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
dec = nn.TransformerDecoder(dec_layer, num_layers=2)
det(dec, 0, 0.2)
tgt = data(2, 4, 8); mem = data(2, 5, 8, seed=3)
causal = nn.Transformer.generate_square_subsequent_mask(4)
mem_mask = torch.zeros(4, 5); mem_mask[:, -1] = float("-inf")
out = dec(tgt, mem, tgt_mask=causal, memory_mask=mem_mask, tgt_is_causal=True, memory_key_padding_mask=torch.tensor([[False] * 5, [False, False, False, True, True]]))
out2 = dec(tgt[:, :2], mem, tgt_mask=causal[:2, :2])
out.sum().backward()
report(out=out[1, -1], prefix=torch.allclose(out2[0, 0], dec(tgt[:, :1], mem)[0, 0], atol=1e-5), g=dec.layers[0].multihead_attn.in_proj_weight.grad.abs().sum(), n=len(dec.layers))
# TOL 1e-3
