import string
import torch
import torch.nn as nn
import torch.nn.functional as F

allowed_characters = string.ascii_letters + " .,;'"
n_letters = len(allowed_characters)


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][allowed_characters.find(letter)] = 1
    return tensor


class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(CharRNN, self).__init__()
        self.rnn = nn.RNN(input_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, line_tensor):
        rnn_out, hidden = self.rnn(line_tensor)
        output = self.h2o(hidden[0])
        output = self.softmax(output)
        return output


rnn = det(CharRNN(n_letters, 16, 3), scale=0.15)
names = ['Satoshi', 'Nakamura', 'Smith', 'Li', 'Garcia', 'Muller']
labels = torch.tensor([0, 0, 1, 2, 1, 2])
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.15)
epoch_losses = []
for epoch in range(3):
    rnn.zero_grad()
    batch_loss = 0
    for name, label in zip(names, labels):
        output = rnn(lineToTensor(name))
        loss = criterion(output, label.unsqueeze(0))
        batch_loss += loss
    batch_loss.backward()
    nn.utils.clip_grad_norm_(rnn.parameters(), 3)
    optimizer.step()
    optimizer.zero_grad()
    epoch_losses.append(batch_loss.item() / len(names))
rnn.eval()
with torch.no_grad():
    preds = [rnn(lineToTensor(n)).argmax(1).item() for n in names]
    probs = rnn(lineToTensor('Li')).exp()
report(losses=epoch_losses, preds=preds, probs=probs, names=[n for n, _ in rnn.rnn.named_parameters()])
