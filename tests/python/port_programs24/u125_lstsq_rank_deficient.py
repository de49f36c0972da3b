import torch

X = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
y = torch.tensor([[1.0], [2.0], [0.5], [0.3]])
sol = torch.linalg.lstsq(X, y, driver="gelsd")
pinv = torch.linalg.pinv(X) @ y
rank = torch.linalg.matrix_rank(X)
wide = torch.linalg.lstsq(X.T, torch.tensor([[1.0], [0.0], [2.0]]))
res = torch.linalg.lstsq(torch.cat([torch.ones(5, 1), torch.arange(5.0).unsqueeze(1)], 1), torch.tensor([[1.0], [2.9], [5.2], [7.1], [8.8]]))
report(sol=sol.solution.squeeze(1), rank_lstsq=sol.rank.item(), sv=sol.singular_values, pinv=pinv.squeeze(1), rank=rank.item(),
       wide=wide.solution.squeeze(1), res=res.solution.squeeze(1), residuals=res.residuals, pinv_herm=torch.linalg.pinv(X.T @ X, hermitian=True)[0])
