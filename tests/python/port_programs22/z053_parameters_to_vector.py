import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

model = det(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), seed=65)
vec = parameters_to_vector(model.parameters())
x = data(5, 3, seed=66)
base = model(x).sum()
vector_to_parameters(vec * 0.5, model.parameters())
half = model(x).sum()
base_loss = lambda: nn.functional.mse_loss(model(x), torch.zeros(5, 2))
loss = base_loss()
g = torch.autograd.grad(loss, list(model.parameters()))
gvec = parameters_to_vector(g)
vector_to_parameters(parameters_to_vector(model.parameters()) - 0.1 * gvec, model.parameters())
report(n=vec.numel(), shape=vec.shape, vec=vec[:6], base=base, half=half, gvec=gvec[-6:], after=base_loss(),
       req=vec.requires_grad, w=model[2].weight, is_param=isinstance(model[0].weight, nn.Parameter))
