import torch
S, O, T = 3, 4, 6
log_pi = torch.log_softmax(data(S), 0)
log_A = torch.log_softmax(data(S, S, seed=3), 1)
log_B = torch.log_softmax(data(S, O, seed=4), 1)
obs = ints(O, T)
alpha = log_pi + log_B[:, obs[0]]
for t in range(1, T):
    alpha = torch.logsumexp(alpha.unsqueeze(1) + log_A, dim=0) + log_B[:, obs[t]]
loglik = torch.logsumexp(alpha, 0)
delta = log_pi + log_B[:, obs[0]]
back = []
for t in range(1, T):
    scores = delta.unsqueeze(1) + log_A
    best, arg = scores.max(0)
    back.append(arg)
    delta = best + log_B[:, obs[t]]
path = [int(delta.argmax())]
for arg in reversed(back):
    path.insert(0, int(arg[path[0]]))
beta = torch.zeros(S)
for t in range(T - 1, 0, -1):
    beta = torch.logsumexp(log_A + log_B[:, obs[t]] + beta, dim=1)
ll2 = torch.logsumexp(log_pi + log_B[:, obs[0]] + beta, 0)
report(loglik=loglik, path=path, ll2=ll2, delta=delta)
