import math
import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[: x.size(0)]
        return self.dropout(x)


class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.0):
        super().__init__()
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        layer = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(layer, nlayers, enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)

    def forward(self, src, src_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, src_mask)
        return self.linear(output)


model = det(TransformerModel(20, 8, 2, 16, 2), scale=0.15)
src = ints(20, 7, 3)
mask = nn.Transformer.generate_square_subsequent_mask(7)
model.train()
crit = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
lossv = []
for i in range(3):
    out = model(src[:-1], mask[:-1, :-1])
    loss = crit(out.view(-1, 20), src[1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    opt.step()
    lossv.append(loss.item())
model.eval()
with torch.no_grad():
    ev = model(src, mask)
report(lossv=lossv, ppl=math.exp(lossv[-1]), ev=ev[-1, 0, :5], mask=mask[:3, :3], pe=model.pos_encoder.pe[3, 0, :4])
