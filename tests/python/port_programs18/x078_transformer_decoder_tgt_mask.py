import torch
import torch.nn as nn

dec_layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True, norm_first=True)
dec = det(nn.TransformerDecoder(dec_layer, 1, norm=nn.LayerNorm(8)), scale=0.3)
mem = data(2, 3, 8, seed=1)
tgt = data(2, 4, 8, seed=2)
tm = nn.Transformer.generate_square_subsequent_mask(4)
out = dec(tgt, mem, tgt_mask=tm, memory_key_padding_mask=torch.tensor([[False, False, True], [False] * 3]))
out.mean().backward()
report(out=out[0, :, :3], g=dec.layers[0].self_attn.in_proj_weight.grad[0, :4])
