import math
import torch
import torch.nn as nn


class PosEnc(nn.Module):
    def __init__(self, d, maxlen=50):
        super().__init__()
        pe = torch.zeros(maxlen, d)
        pos = torch.arange(0, maxlen, dtype=torch.float).unsqueeze(1)
        div = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(30, 16)
        self.pos = PosEnc(16)
        layer = nn.TransformerEncoderLayer(16, 4, dim_feedforward=32, dropout=0.0, activation="gelu", batch_first=True)
        self.enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.cls = nn.Linear(16, 2)

    def forward(self, tok, pad):
        h = self.enc(self.pos(self.emb(tok) * math.sqrt(16)), src_key_padding_mask=pad)
        h = h.masked_fill(pad.unsqueeze(-1), 0.0)
        return self.cls(h.sum(1) / (~pad).sum(1, keepdim=True))


m = det(Model(), scale=0.1)
tok = ints(30, 3, 7)
pad = torch.zeros(3, 7, dtype=torch.bool)
pad[0, 5:] = True
pad[2, 3:] = True
tok = tok.masked_fill(pad, 0)
out = m(tok, pad)
opt = torch.optim.AdamW(m.parameters(), lr=1e-3, weight_decay=0.01)
loss = nn.functional.cross_entropy(out, torch.tensor([0, 1, 1]))
loss.backward()
opt.step()
report(out=out, loss=loss, after=m(tok, pad), buffers=[n for n, _ in m.named_buffers()])
