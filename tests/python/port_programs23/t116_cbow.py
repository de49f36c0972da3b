import torch
import torch.nn as nn

CONTEXT_SIZE = 2
raw_text = """We are about to study the idea of a computational process.
Computational processes are abstract beings that inhabit computers.""".split()
vocab = sorted(set(raw_text))
vocab_size = len(vocab)
word_to_ix = {word: i for i, word in enumerate(vocab)}
data_ = []
for i in range(CONTEXT_SIZE, len(raw_text) - CONTEXT_SIZE):
    context = (
        [raw_text[i - j - 1] for j in range(CONTEXT_SIZE)]
        + [raw_text[i + j + 1] for j in range(CONTEXT_SIZE)]
    )
    target = raw_text[i]
    data_.append((context, target))


class CBOW(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.out = nn.Linear(dim, vocab_size)

    def forward(self, inputs):
        return torch.log_softmax(self.out(self.emb(inputs).sum(dim=0, keepdim=True)), dim=-1)


def make_context_vector(context, word_to_ix):
    idxs = [word_to_ix[w] for w in context]
    return torch.tensor(idxs, dtype=torch.long)


model = det(CBOW(vocab_size, 8), scale=0.2)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.NLLLoss()
losses = []
for epoch in range(3):
    total = 0.0
    for context, target in data_:
        opt.zero_grad()
        loss = loss_fn(model(make_context_vector(context, word_to_ix)), torch.tensor([word_to_ix[target]]))
        loss.backward()
        opt.step()
        total += loss.item()
    losses.append(total)
report(first=data_[0], ctx=make_context_vector(data_[0][0], word_to_ix), losses=losses)
