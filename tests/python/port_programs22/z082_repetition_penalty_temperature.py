import torch

def repetition_penalty(input_ids, scores, penalty):
    score = torch.gather(scores, 1, input_ids)
    score = torch.where(score < 0, score * penalty, score / penalty)
    return scores.scatter(1, input_ids, score)

def no_repeat_ngram_ban(ids, n=2):
    banned = []
    for row in ids.tolist():
        gen = {}
        for i in range(len(row) - n + 1):
            prev = tuple(row[i:i + n - 1])
            gen.setdefault(prev, []).append(row[i + n - 1])
        banned.append(gen.get(tuple(row[-(n - 1):]), []))
    return banned

ids = torch.tensor([[1, 3, 1, 3], [0, 2, 2, 4]])
scores = data(2, 6, seed=108, scale=2.0)
p = repetition_penalty(ids, scores, 1.3)
t = scores / 0.7
probs = torch.softmax(t, dim=-1)
ban = no_repeat_ngram_ban(ids)
masked = scores.clone()
for b, toks in enumerate(ban):
    masked[b, toks] = -float("inf")
report(p=p, probs=probs, ban=ban, masked=masked, ent=-(probs * probs.log()).sum(-1))
