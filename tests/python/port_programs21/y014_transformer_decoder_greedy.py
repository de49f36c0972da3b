import torch
import torch.nn as nn
# TOL 1e-3

layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
dec = det(nn.TransformerDecoder(layer, num_layers=2), seed=1)
emb = det(nn.Embedding(6, 8), seed=2)
head = det(nn.Linear(8, 6), seed=3)
memory = data(1, 3, 8, seed=4)
dec.eval()
ys = torch.tensor([[1]])
with torch.no_grad():
    for _ in range(4):
        m = nn.Transformer.generate_square_subsequent_mask(ys.size(1))
        out = dec(emb(ys), memory, tgt_mask=m, tgt_is_causal=True)
        nxt = head(out[:, -1]).argmax(-1, keepdim=True)
        ys = torch.cat([ys, nxt], dim=1)
    full = dec(emb(ys), memory, tgt_mask=nn.Transformer.generate_square_subsequent_mask(ys.size(1)))
report(ys=ys, last=full[0, -1], mask_dtype=m.dtype)
