import torch
import torch.nn as nn
text = "hello world, this is a tiny corpus for a char rnn. hello again!"
chars = sorted(list(set(text)))
stoi = {ch: i for i, ch in enumerate(chars)}; itos = {i: ch for ch, i in stoi.items()}
encoded = torch.tensor([stoi[c] for c in text], dtype=torch.long)
class CharRNN(nn.Module):
    def __init__(self, n_chars, n_hidden=16, n_layers=2, drop_prob=0.0):
        super().__init__()
        self.n_layers, self.n_hidden = n_layers, n_hidden
        self.emb = nn.Embedding(n_chars, 8)
        self.lstm = nn.LSTM(8, n_hidden, n_layers, dropout=drop_prob, batch_first=True)
        self.fc = nn.Linear(n_hidden, n_chars)
    def forward(self, x, hidden):
        r_output, hidden = self.lstm(self.emb(x), hidden)
        out = r_output.contiguous().view(-1, self.n_hidden)
        return self.fc(out), hidden
    def init_hidden(self, batch_size):
        weight = next(self.parameters()).data
        return (weight.new(self.n_layers, batch_size, self.n_hidden).zero_(),
                weight.new(self.n_layers, batch_size, self.n_hidden).zero_())
net = det(CharRNN(len(chars)))
opt = torch.optim.Adam(net.parameters(), lr=0.01)
criterion = nn.CrossEntropyLoss()
seq_len, batch = 10, 3
starts = [0, 17, 33]
x = torch.stack([encoded[s:s + seq_len] for s in starts]); y = torch.stack([encoded[s + 1:s + seq_len + 1] for s in starts])
losses = []
h = net.init_hidden(batch)
for e in range(5):
    h = tuple([each.data for each in h])
    net.zero_grad()
    output, h = net(x, h)
    loss = criterion(output, y.view(batch * seq_len).long())
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), 5)
    opt.step(); losses.append(loss.item())
def predict(net, char, h=None, top_k=None, temperature=1.0):
    x = torch.tensor([[stoi[char]]])
    out, h = net(x, h)
    p = torch.softmax(out / temperature, dim=1).data
    if top_k is None:
        return itos[p.argmax(dim=1).item()], h, p
    p, top_ch = p.topk(top_k)
    idx = torch.multinomial(p / p.sum(), 1).item()
    return itos[top_ch[0, idx].item()], h, p
net.eval()
with torch.no_grad():
    h = net.init_hidden(1)
    s = "h"; probs = None
    for _ in range(12):
        c, h, p = predict(net, s[-1], h)
        s += c
    torch.manual_seed(1)
    c2, _, p2 = predict(net, "h", None, top_k=3)
report(losses=losses, sample=s, k_ok=c2 in chars, p2=p2, nchars=len(chars))
