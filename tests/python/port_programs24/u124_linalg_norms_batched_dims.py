import torch

A = data(2, 3, 4)
report(fro=torch.linalg.matrix_norm(A), nuc=torch.linalg.matrix_norm(A, "nuc"), two=torch.linalg.matrix_norm(A, 2), inf=torch.linalg.matrix_norm(A, float("inf")),
       neg1=torch.linalg.matrix_norm(A, -1), dims=torch.linalg.matrix_norm(A, dim=(0, 2)), vec=torch.linalg.vector_norm(A, ord=3, dim=(1, 2)),
       keep=torch.linalg.norm(A, dim=-1, keepdim=True).shape, norm_none=torch.linalg.norm(A).item(), norm_vec_dim=torch.linalg.norm(A, ord=1, dim=1),
       tnorm_p=torch.norm(A, p="fro", dim=(1, 2)), tnorm_inf=torch.norm(A, p=float("inf")).item(), renorm=torch.renorm(A[0], p=2, dim=0, maxnorm=1.0),
       dtype_arg=torch.linalg.vector_norm(A.double(), dtype=torch.float32).dtype if False else torch.linalg.vector_norm(A, dtype=torch.float64).dtype)
