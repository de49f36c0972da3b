import torch
import torch.nn as nn


class Acoustic(nn.Module):
    def __init__(self, feat, hidden, n_tokens):
        super().__init__()
        self.conv = nn.Conv1d(feat, hidden, 3, stride=2, padding=1)
        self.rnn = nn.LSTM(hidden, hidden, num_layers=2, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, n_tokens)

    def forward(self, x, lengths):
        x = torch.relu(self.conv(x))  # (B, H, T')
        lengths = (lengths + 1) // 2
        x = x.permute(2, 0, 1)
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths, enforce_sorted=False)
        out, _ = self.rnn(packed)
        out, _ = nn.utils.rnn.pad_packed_sequence(out)
        return self.fc(out).log_softmax(-1), lengths


net = det(Acoustic(8, 5, 6))
x = data(3, 8, 20)
lengths = torch.tensor([20, 14, 17])
targets = torch.tensor([[1, 2, 3], [4, 4, 0], [5, 1, 0]])
tlen = torch.tensor([3, 2, 2])
ctc = nn.CTCLoss(zero_infinity=True)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
hist = []
for _ in range(4):
    lp, olen = net(x, lengths)
    loss = ctc(lp, targets, olen, tlen)
    opt.zero_grad(); loss.backward()
    gn = nn.utils.clip_grad_norm_(net.parameters(), 1.0)
    opt.step(); hist.append(loss.item())
report(hist=hist, olen=olen, lp_shape=lp.shape, gn=gn.item(), padded_zero=lp[-1, 1].exp().sum().item())
