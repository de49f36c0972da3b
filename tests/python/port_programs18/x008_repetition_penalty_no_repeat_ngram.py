import torch

V = 8
logits = data(2, V, seed=5)
input_ids = torch.tensor([[1, 2, 3, 1, 2], [4, 4, 5, 6, 4]])
penalty = 1.3
score = torch.gather(logits, 1, input_ids)
score = torch.where(score < 0, score * penalty, score / penalty)
pen = logits.scatter(1, input_ids, score)


def banned(ids, n=2):
    out = []
    for row in ids.tolist():
        gen = {}
        for a, b in zip(row[:-1], row[1:]):
            gen.setdefault((a,), []).append(b)
        out.append(gen.get(tuple(row[-1:]), []))
    return out


b = banned(input_ids)
for i, toks in enumerate(b):
    pen[i, toks] = -float("inf")
probs = torch.softmax(pen, -1)
report(pen=pen, banned=b, probs=probs, argmax=pen.argmax(-1))
