import torch
import torch.nn as nn


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size, hidden_size)
        self.h2h = nn.Linear(hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        hidden = torch.tanh(self.i2h(input) + self.h2h(hidden))
        return self.softmax(self.h2o(hidden)), hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


letters = "abcdefgh"


def lineToTensor(line):
    t = torch.zeros(len(line), 1, len(letters))
    for li, letter in enumerate(line):
        t[li][0][letters.find(letter)] = 1
    return t


rnn = det(RNN(len(letters), 6, 3))
crit = nn.NLLLoss()
losses = []
for name, cat in [("abc", 0), ("hgf", 1), ("dead", 2), ("bead", 0)]:
    hidden = rnn.initHidden()
    rnn.zero_grad()
    line = lineToTensor(name)
    for i in range(line.size()[0]):
        output, hidden = rnn(line[i], hidden)
    loss = crit(output, torch.tensor([cat]))
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-0.05)
    losses.append(loss.item())
top_n, top_i = output.topk(1)
report(losses=losses, top=top_i[0].item(), out=output)
