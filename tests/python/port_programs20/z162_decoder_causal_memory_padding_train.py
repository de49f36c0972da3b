import torch
import torch.nn as nn

layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
dec = det(nn.TransformerDecoder(layer, 2), scale=0.3)
tgt = data(2, 4, 8)
mem = data(2, 5, 8, seed=3)
mpad = torch.tensor([[False, False, False, True, True], [False] * 5])
mask = nn.Transformer.generate_square_subsequent_mask(4)
opt = torch.optim.SGD(dec.parameters(), lr=0.05)
ls = []
for _ in range(3):
    opt.zero_grad()
    out = dec(tgt, mem, tgt_mask=mask, memory_key_padding_mask=mpad, tgt_is_causal=True)
    loss = out.pow(2).mean()
    loss.backward()
    opt.step()
    ls.append(loss.item())
dec.eval()
with torch.no_grad():
    ev = dec(tgt, mem, tgt_mask=mask, memory_key_padding_mask=mpad)
report(ls=ls, ev=ev.sum(), ev0=ev[0, 0])
