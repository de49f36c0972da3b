import math
import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=50):
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


pe = PositionalEncoding(6).eval()
x = data(4, 2, 6, seed=1)
y = pe(x)
report(y=y[:, 0], pe=pe.pe[3, 0], keys=list(pe.state_dict().keys()), dt=pe.pe.dtype, div=torch.exp(torch.arange(0, 6, 2) * (-math.log(10000.0) / 6)))
