import math
import torch
import torch.nn as nn


class Seq2Seq(nn.Module):
    def __init__(self, v=10, d=8):
        super().__init__()
        self.src_emb = nn.Embedding(v, d)
        self.tgt_emb = nn.Embedding(v, d)
        self.tr = nn.Transformer(d_model=d, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16, dropout=0.0,
                                 batch_first=True)
        self.out = nn.Linear(d, v)
        self.d = d

    def encode(self, src, src_pad):
        return self.tr.encoder(self.src_emb(src) * math.sqrt(self.d), src_key_padding_mask=src_pad)

    def decode(self, tgt, mem, src_pad):
        mask = self.tr.generate_square_subsequent_mask(tgt.size(1))
        h = self.tr.decoder(self.tgt_emb(tgt) * math.sqrt(self.d), mem, tgt_mask=mask, memory_key_padding_mask=src_pad)
        return self.out(h)


m = det(Seq2Seq(), scale=0.3).eval()
src = torch.tensor([[3, 4, 5, 0], [6, 7, 0, 0]])
pad = src == 0
with torch.no_grad():
    mem = m.encode(src, pad)
    ys = torch.ones(2, 1, dtype=torch.long)
    for _ in range(4):
        logits = m.decode(ys, mem, pad)
        ys = torch.cat([ys, logits[:, -1].argmax(-1, keepdim=True)], 1)
report(ys=ys, mem=mem.sum(), last=logits[:, -1])
