import math
import torch
import torch.nn as nn
class PosEnc(nn.Module):
    def __init__(self, d, max_len=50):
        super().__init__()
        pe = torch.zeros(max_len, d)
        pos = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
        pe[:, 0::2] = torch.sin(pos * div); pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))
    def forward(self, x):
        return x + self.pe[:, :x.size(1)]
class Seq2Seq(nn.Module):
    def __init__(self, V=12, d=16):
        super().__init__()
        self.emb = nn.Embedding(V, d, padding_idx=0)
        self.pos = PosEnc(d)
        self.tf = nn.Transformer(d_model=d, nhead=2, num_encoder_layers=2, num_decoder_layers=1, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.out = nn.Linear(d, V)
        self.d = d
    def forward(self, src, tgt):
        tgt_mask = self.tf.generate_square_subsequent_mask(tgt.size(1))
        h = self.tf(self.pos(self.emb(src) * math.sqrt(self.d)), self.pos(self.emb(tgt) * math.sqrt(self.d)), tgt_mask=tgt_mask,
                    src_key_padding_mask=src == 0, tgt_key_padding_mask=tgt == 0, memory_key_padding_mask=src == 0)
        return self.out(h)
model = det(Seq2Seq(), 0, 0.1)
src = torch.tensor([[3, 4, 5, 6, 0], [7, 8, 9, 0, 0]])
tgt = torch.tensor([[1, 6, 5, 4, 3, 2], [1, 9, 8, 7, 2, 0]])
crit = nn.CrossEntropyLoss(ignore_index=0, label_smoothing=0.1)
opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
L = []
for _ in range(3):
    logits = model(src, tgt[:, :-1])
    loss = crit(logits.reshape(-1, 12), tgt[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
mask = nn.Transformer.generate_square_subsequent_mask(4)
model.eval()
with torch.no_grad():
    ys = torch.ones(2, 1, dtype=torch.long)
    for i in range(4):
        nxt = model(src, ys)[:, -1].argmax(-1, keepdim=True)
        ys = torch.cat([ys, nxt], dim=1)
report(L=L, mask=mask, ys=ys, logits=logits[0, 0, :4])
# TOL 1e-3
