import collections
import torch

corpus = ["low lower lowest", "new newer newest", "wide wider"]
words = collections.Counter(w for line in corpus for w in line.split())
vocab = {" ".join(w) + " </w>": c for w, c in words.items()}
merges = []
for _ in range(4):
    pairs = collections.Counter()
    for word, freq in vocab.items():
        syms = word.split()
        for a, b in zip(syms, syms[1:]):
            pairs[a, b] += freq
    best = max(sorted(pairs), key=lambda p: pairs[p])
    merges.append(best)
    vocab = {w.replace(" ".join(best), "".join(best)): c for w, c in vocab.items()}
tokens = sorted({s for w in vocab for s in w.split()})
stoi = {t: i + 2 for i, t in enumerate(tokens)}
encoded = [[stoi[s] for w in line.split() for s in next(k for k in vocab if k.replace(" ", "") == w + "</w>").split()] for line in corpus]
maxlen = max(map(len, encoded))
batch = torch.tensor([e + [0] * (maxlen - len(e)) for e in encoded])
attn = (batch != 0).long()
pos = (attn.cumsum(1) - 1).clamp(min=0) * attn
report(merges=[list(m) for m in merges], batch=batch, attn=attn, pos=pos, lens=attn.sum(1))
