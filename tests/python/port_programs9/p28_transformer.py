import math
import torch
import torch.nn as nn
class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.0, max_len=50):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe)
    def forward(self, x):
        x = x + self.pe[:x.size(0)]
        return self.dropout(x)
class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.0):
        super().__init__()
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        encoder_layers = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers, enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)
    def forward(self, src, src_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, src_mask)
        return self.linear(output)
model = det(TransformerModel(15, 8, 2, 16, 2), 0, 0.2)
src = ints(15, 6, 3)
mask = nn.Transformer.generate_square_subsequent_mask(6)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.95)
tgt = ints(15, 6, 3, seed=8)
losses = []
model.train()
for _ in range(3):
    output = model(src, mask)
    loss = criterion(output.view(-1, 15), tgt.reshape(-1))
    optimizer.zero_grad(); loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step(); scheduler.step(); losses.append(loss.item())
model.eval()
layer = nn.TransformerEncoderLayer(8, 2, 16, 0.0, batch_first=True, norm_first=True, activation="gelu")
det(layer, 3)
kpm = torch.tensor([[False, False, True, True], [False, False, False, False]])
with torch.no_grad():
    ev = model(src, mask)
    lo = layer(data(2, 4, 8, seed=4), src_key_padding_mask=kpm)
report(losses=losses, ev=ev[0, 0], mask=mask, lo=lo[0], pe=model.pos_encoder.pe[3, 0], lr=scheduler.get_last_lr())
