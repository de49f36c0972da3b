import torch

logits = data(2, 8, seed=3) * 3
prev = torch.tensor([[1, 1, 4], [0, 7, 2]])
penalty = 1.3
score = torch.gather(logits, 1, prev)
score = torch.where(score < 0, score * penalty, score / penalty)
pen = logits.scatter(1, prev, score)
temp = pen / 0.8
probs = torch.softmax(temp, dim=-1)
greedy = torch.argmax(probs, dim=-1)
entropy = -(probs * probs.log()).sum(-1)
eos = torch.tensor([False, True])
unfinished = (~eos).long()
nxt = greedy * unfinished + 9 * (1 - unfinished)
report(pen=pen, probs=probs, greedy=greedy, entropy=entropy, nxt=nxt)
