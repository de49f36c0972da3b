import torch
x = data(3, 6, seed=5)
report(cov=torch.cov(x), cov0=torch.cov(x, correction=0), covw=torch.cov(x, fweights=torch.tensor([1, 2, 1, 1, 3, 1])), cc=torch.corrcoef(x), cd=torch.cdist(x, x[:2]),
       cd1=torch.cdist(x, x, p=1), pd=torch.pdist(x), cs=torch.nn.functional.cosine_similarity(x[0], x[1], dim=0), pwd=torch.nn.functional.pairwise_distance(x[:1], x[1:2]))
