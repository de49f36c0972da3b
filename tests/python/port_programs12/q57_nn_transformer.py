import math
import torch
import torch.nn as nn
class Seq2Seq(nn.Module):
    def __init__(self, V=15, d=16):
        super().__init__()
        self.src_emb = nn.Embedding(V, d); self.tgt_emb = nn.Embedding(V, d)
        self.transformer = nn.Transformer(d_model=d, nhead=2, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=32, dropout=0.0)
        self.fc = nn.Linear(d, V); self.d = d
    def forward(self, src, tgt, src_pad, tgt_pad):
        tgt_mask = self.transformer.generate_square_subsequent_mask(tgt.size(0))
        s = self.src_emb(src) * math.sqrt(self.d); t = self.tgt_emb(tgt) * math.sqrt(self.d)
        out = self.transformer(s, t, tgt_mask=tgt_mask, src_key_padding_mask=src_pad, tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad)
        return self.fc(out)
model = det(Seq2Seq(), scale=0.2)
src = (ints(13, 6, 3) + 2); src[4:, 1] = 0
tgt = (ints(13, 5, 3, seed=4) + 2); tgt[0] = 1; tgt[3:, 2] = 0
src_pad = (src == 0).T; tgt_pad = (tgt == 0).T
crit = nn.CrossEntropyLoss(ignore_index=0)
opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
losses = []
for _ in range(4):
    opt.zero_grad()
    out = model(src, tgt[:-1], src_pad, tgt_pad[:, :-1])
    loss = crit(out.reshape(-1, out.size(-1)), tgt[1:].reshape(-1))
    loss.backward(); torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5); opt.step(); losses.append(loss.item())
model.eval()
with torch.no_grad():
    mem = model.transformer.encoder(model.src_emb(src) * 4.0, src_key_padding_mask=src_pad)
    ys = torch.ones(1, 3, dtype=torch.long)
    for i in range(4):
        tm = nn.Transformer.generate_square_subsequent_mask(ys.size(0))
        o = model.transformer.decoder(model.tgt_emb(ys) * 4.0, mem, tgt_mask=tm, memory_key_padding_mask=src_pad)
        nxt = model.fc(o[-1]).argmax(-1)
        ys = torch.cat([ys, nxt.unsqueeze(0)], dim=0)
report(losses=losses, ys=ys, mem=mem[0, 0], n=sum(p.numel() for p in model.parameters()))
