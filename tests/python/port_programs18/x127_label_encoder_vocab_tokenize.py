import torch

texts = ["the cat sat", "the dog sat down", "a cat"]
vocab = {"<pad>": 0, "<unk>": 1}
for t in texts:
    for w in t.split():
        vocab.setdefault(w, len(vocab))
ids = [torch.tensor([vocab.get(w, 1) for w in t.split()]) for t in texts + ["the bird"]]
padded = torch.nn.utils.rnn.pad_sequence(ids, batch_first=True, padding_value=vocab["<pad>"])
lengths = torch.tensor([len(i) for i in ids])
mask = torch.arange(padded.size(1))[None] < lengths[:, None]
counts = torch.bincount(torch.cat(ids), minlength=len(vocab))
itos = {i: w for w, i in vocab.items()}
report(padded=padded, mask=mask, counts=counts, decoded=[" ".join(itos[i] for i in row.tolist() if i) for row in padded])
