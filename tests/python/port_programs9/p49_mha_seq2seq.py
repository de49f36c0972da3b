import torch
import torch.nn as nn
class Seq2Seq(nn.Module):
    def __init__(self, vocab=12, d=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.transformer = nn.Transformer(d_model=d, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16, dropout=0.0, batch_first=True)
        self.out = nn.Linear(d, vocab)
    def forward(self, src, tgt, src_pad, tgt_pad):
        tgt_mask = self.transformer.generate_square_subsequent_mask(tgt.size(1))
        h = self.transformer(self.emb(src), self.emb(tgt), tgt_mask=tgt_mask, src_key_padding_mask=src_pad, tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad)
        return self.out(h)
model = det(Seq2Seq(), 0, 0.3)
src = torch.tensor([[5, 6, 7, 0], [3, 4, 0, 0]]); tgt = torch.tensor([[1, 8, 9, 2], [1, 10, 2, 0]])
src_pad = src == 0; tgt_pad = tgt == 0
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
crit = nn.CrossEntropyLoss(ignore_index=0)
losses = []
for _ in range(3):
    logits = model(src, tgt[:, :-1], src_pad, tgt_pad[:, :-1])
    loss = crit(logits.reshape(-1, 12), tgt[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step(); losses.append(loss.item())
mha = det(nn.MultiheadAttention(8, 2, batch_first=True), 3, 0.3)
q = data(2, 3, 8); kv = data(2, 4, 8, seed=5)
am = torch.tensor([[False, True, False, False]] * 3)
o, w = mha(q, kv, kv, key_padding_mask=torch.tensor([[False, False, False, True], [False, False, False, False]]), attn_mask=am)
o2, w2 = mha(q, kv, kv, need_weights=True, average_attn_weights=False)
model.eval()
with torch.no_grad():
    ys = torch.ones(1, 1, dtype=torch.long)
    for i in range(4):
        nxt = model(src[:1], ys, src_pad[:1], None)[:, -1].argmax(-1, keepdim=True)
        ys = torch.cat([ys, nxt], dim=1)
report(losses=losses, o=o[0], w=w[1], w2=list(w2.shape), ys=ys)
