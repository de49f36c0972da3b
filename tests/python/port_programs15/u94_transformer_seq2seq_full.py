import math
import torch
import torch.nn as nn


class Seq2SeqTransformer(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, d=16, nhead=2, layers=1):
        super().__init__()
        self.transformer = nn.Transformer(d_model=d, nhead=nhead, num_encoder_layers=layers, num_decoder_layers=layers,
                                          dim_feedforward=32, dropout=0.0, batch_first=True)
        self.src_tok = nn.Embedding(src_vocab, d)
        self.tgt_tok = nn.Embedding(tgt_vocab, d)
        self.generator = nn.Linear(d, tgt_vocab)
        self.d = d

    def forward(self, src, tgt, src_pad, tgt_pad):
        tgt_mask = self.transformer.generate_square_subsequent_mask(tgt.size(1))
        s = self.src_tok(src) * math.sqrt(self.d)
        t = self.tgt_tok(tgt) * math.sqrt(self.d)
        out = self.transformer(s, t, tgt_mask=tgt_mask, src_key_padding_mask=src_pad, tgt_key_padding_mask=tgt_pad,
                               memory_key_padding_mask=src_pad)
        return self.generator(out)

    def encode(self, src):
        return self.transformer.encoder(self.src_tok(src) * math.sqrt(self.d))

    def decode(self, tgt, memory):
        mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(1))
        return self.transformer.decoder(self.tgt_tok(tgt) * math.sqrt(self.d), memory, tgt_mask=mask)


PAD, BOS, EOS = 0, 1, 2
model = det(Seq2SeqTransformer(12, 11), scale=0.15)
src = torch.tensor([[5, 6, 7, 2, 0], [3, 4, 2, 0, 0]])
tgt = torch.tensor([[1, 8, 9, 10, 2], [1, 5, 2, 0, 0]])
tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
loss_fn = nn.CrossEntropyLoss(ignore_index=PAD)
hist = []
for _ in range(3):
    logits = model(src, tgt_in, src == PAD, tgt_in == PAD)
    loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
model.eval()
with torch.no_grad():
    mem = model.encode(src[:1, :4])
    ys = torch.ones(1, 1, dtype=torch.long).fill_(BOS)
    for i in range(5):
        out = model.decode(ys, mem)
        nxt = model.generator(out[:, -1]).argmax(-1).item()
        ys = torch.cat([ys, torch.tensor([[nxt]])], dim=1)
        if nxt == EOS:
            break
report(hist=hist, ys=ys, lshape=logits.shape)
