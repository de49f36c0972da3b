import torch
import torch.nn as nn
class Sequence(nn.Module):
    def __init__(self):
        super(Sequence, self).__init__()
        self.lstm1 = nn.LSTMCell(1, 12)
        self.lstm2 = nn.LSTMCell(12, 12)
        self.gru = nn.GRUCell(12, 6)
        self.linear = nn.Linear(6, 1)
    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), 12, dtype=torch.double)
        c_t = torch.zeros(input.size(0), 12, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), 12, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), 12, dtype=torch.double)
        g = torch.zeros(input.size(0), 6, dtype=torch.double)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            g = self.gru(h_t2, g)
            output = self.linear(g)
            outputs += [output]
        for i in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            g = self.gru(h_t2, g)
            output = self.linear(g)
            outputs += [output]
        return torch.cat(outputs, dim=1)
T = 20
x = torch.arange(T, dtype=torch.float64)
d = torch.sin(x.view(1, -1) / 3.0 + torch.arange(3, dtype=torch.float64).view(-1, 1))
inp, target = d[:, :-1], d[:, 1:]
seq = det(Sequence()).double()
criterion = nn.MSELoss()
optimizer = torch.optim.LBFGS(seq.parameters(), lr=0.8, max_iter=4)
hist = []
for i in range(2):
    def closure():
        optimizer.zero_grad()
        out = seq(inp)
        loss = criterion(out, target)
        loss.backward()
        return loss
    optimizer.step(closure)
    with torch.no_grad():
        pred = seq(inp[:1], future=5)
        hist.append(criterion(pred[:, :-5], target[:1]).item())
report(hist=hist, pred=pred[0, -5:], dt=pred.dtype, wdt=seq.linear.weight.dtype)
