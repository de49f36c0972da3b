import torch

a, b = torch.tensor([1, 2, 3]), torch.tensor([10, 20])
gi = torch.meshgrid(a, b, indexing="ij")
gx = torch.meshgrid(a, b, indexing="xy")
report(
    gi0=gi[0], gi1=gi[1], gx0=gx[0], gx1=gx[1], cart=torch.cartesian_prod(a, b), comb=torch.combinations(a, r=2),
    comb_rep=torch.combinations(a, with_replacement=True), tril=torch.tril_indices(3, 3), triu=torch.triu_indices(3, 4, offset=1),
    tril_neg=torch.tril_indices(4, 3, -1), vander=torch.vander(torch.tensor([1, 2, 3]), N=3), vander_inc=torch.linalg.vander(torch.tensor([1.0, 2.0])),
    block=torch.block_diag(torch.ones(1, 2), torch.tensor([[5]])), kron=torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0]])),
    diag_embed=torch.diag_embed(torch.tensor([[1.0, 2.0]]), offset=1), diagflat=torch.diagflat(torch.tensor([1, 2]), -1),
    atleast=[t.shape for t in torch.atleast_2d(torch.tensor(1.0), torch.ones(3))], logspace=torch.logspace(0, 2, 3, base=2),
    eye_rect=torch.eye(2, 3), full_bool=torch.full((2,), True), arange_f=torch.arange(0, 1, 0.3), arange_neg=torch.arange(5, 0, -2),
)
