import torch
import torch.nn as nn


class CRNN(nn.Module):
    def __init__(self, classes=5):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 1)))
        self.rnn = nn.LSTM(4 * 4, 6, bidirectional=True)
        self.fc = nn.Linear(12, classes)

    def forward(self, x):
        f = self.cnn(x)
        b, c, h, w = f.size()
        f = f.view(b, c * h, w).permute(2, 0, 1)
        o, _ = self.rnn(f)
        return self.fc(o).log_softmax(2)


m = det(CRNN(), scale=0.3)
x = data(2, 1, 8, 10)
targets = torch.tensor([1, 2, 3, 4, 4, 1, 2])
target_lengths = torch.tensor([4, 3])
input_lengths = torch.full((2,), 10, dtype=torch.long)
ctc = nn.CTCLoss(blank=0, zero_infinity=True)
opt = torch.optim.Adam(m.parameters(), lr=1e-2)
ls = []
for _ in range(3):
    opt.zero_grad()
    lp = m(x)
    loss = ctc(lp, targets, input_lengths, target_lengths)
    loss.backward()
    opt.step()
    ls.append(loss.item())
best = lp.argmax(2).T
report(ls=ls, lp_shape=lp.shape, best=best)
