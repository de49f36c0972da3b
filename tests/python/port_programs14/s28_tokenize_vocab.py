import torch
from collections import Counter

corpus = ["the cat sat on the mat", "the dog ate my homework", "a cat and a dog"]
counter = Counter(w for s in corpus for w in s.split())
itos = ["<pad>", "<unk>"] + sorted(w for w, c in counter.items() if c >= 1)
stoi = {w: i for i, w in enumerate(itos)}
encoded = [torch.tensor([stoi.get(w, 1) for w in s.split()], dtype=torch.long) for s in corpus]
maxlen = max(len(e) for e in encoded)
batch = torch.full((len(encoded), maxlen), stoi["<pad>"], dtype=torch.long)
for i, e in enumerate(encoded):
    batch[i, : len(e)] = e
attn = (batch != 0).long()
onehot = torch.nn.functional.one_hot(batch, num_classes=len(itos))
bow = onehot.sum(1)
tf = bow.float() / attn.sum(1, keepdim=True)
df = (bow > 0).sum(0)
idf = torch.log(torch.tensor(len(corpus), dtype=torch.float) / df.clamp(min=1))
report(batch=batch, attn=attn, ohdt=onehot.dtype, bow=bow[:, 2:8], tfidf=(tf * idf)[0], df=df, vocab=len(itos))
