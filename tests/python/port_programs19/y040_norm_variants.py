import torch
x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
v = torch.tensor([3.0, -4.0, 0.0])
report(fro=torch.linalg.norm(x), nuc=torch.linalg.matrix_norm(x, "nuc"), two=torch.linalg.matrix_norm(x, 2), one=torch.linalg.matrix_norm(x, 1),
       inf=torch.linalg.matrix_norm(x, float("inf")), v1=torch.linalg.vector_norm(v, 1), vinf=torch.linalg.vector_norm(v, float("inf")),
       v0=torch.linalg.vector_norm(v, 0), vm=torch.linalg.vector_norm(x, 3, dim=1), tn=torch.norm(x, p="fro"), tn1=x.norm(1, dim=0),
       ln=torch.linalg.norm(v, ord=-float("inf")), kd=torch.linalg.vector_norm(x, dim=1, keepdim=True), cond=torch.linalg.cond(torch.tensor([[2.0, 0.0], [0.0, 0.5]])))
