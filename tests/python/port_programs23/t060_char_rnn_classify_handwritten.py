import string
import torch
import torch.nn as nn

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)
category_lines = {'English': ['Abbott', 'Smith', 'Jones'], 'French': ['Abel', 'Dubois', 'Lefevre'],
                  'Italian': ['Rossi', 'Bianchi', 'Ricci']}
all_categories = list(category_lines.keys())
n_categories = len(all_categories)


def letterToIndex(letter):
    return all_letters.find(letter)


def letterToTensor(letter):
    tensor = torch.zeros(1, n_letters)
    tensor[0][letterToIndex(letter)] = 1
    return tensor


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = self.i2h(combined)
        output = self.i2o(combined)
        output = self.softmax(output)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


n_hidden = 32
rnn = det(RNN(n_letters, n_hidden, n_categories), scale=0.1)
input = letterToTensor('A')
hidden = torch.zeros(1, n_hidden)
output, next_hidden = rnn(input, hidden)


def categoryFromOutput(output):
    top_n, top_i = output.topk(1)
    category_i = top_i[0].item()
    return all_categories[category_i], category_i


criterion = nn.NLLLoss()
learning_rate = 0.005


def train(category_tensor, line_tensor):
    hidden = rnn.initHidden()
    rnn.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item()


losses = []
for it in range(12):
    category = all_categories[it % 3]
    line = category_lines[category][(it // 3) % 3]
    category_tensor = torch.tensor([all_categories.index(category)], dtype=torch.long)
    output, loss = train(category_tensor, lineToTensor(line))
    losses.append(loss)


def evaluate(line_tensor):
    hidden = rnn.initHidden()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    return output


with torch.no_grad():
    out = evaluate(lineToTensor('Dubois'))
    topv, topi = out.topk(2, 1, True)
report(n_letters=n_letters, j=letterToTensor('J').nonzero(), line_size=lineToTensor('Jones').size(), output=output,
       first=categoryFromOutput(rnn(input, hidden)[0]), losses=losses, topv=topv, topi=topi)
