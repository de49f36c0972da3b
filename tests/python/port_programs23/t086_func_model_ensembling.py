import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import stack_module_state, functional_call, vmap


class SimpleMLP(nn.Module):
    def __init__(self):
        super(SimpleMLP, self).__init__()
        self.fc1 = nn.Linear(12, 16)
        self.fc2 = nn.Linear(16, 8)
        self.fc3 = nn.Linear(8, 4)

    def forward(self, x):
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        x = self.fc3(x)
        return x


num_models = 3
minibatches = data(num_models, 5, 12, seed=3)
models = [det(SimpleMLP(), seed=i) for i in range(num_models)]
minibatch = minibatches[0]
predictions1 = [model(minibatch) for model in models]
predictions2 = [model(minibatch) for model, minibatch in zip(models, minibatches)]
params, buffers = stack_module_state(models)
base_model = copy.deepcopy(models[0])
base_model = base_model.to('meta')


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


predictions1_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
predictions2_vmap = vmap(fmodel)(params, buffers, minibatches)
report(p1=predictions1_vmap[1], close1=torch.allclose(predictions1_vmap, torch.stack(predictions1), atol=1e-3, rtol=1e-5),
       close2=torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5),
       shapes={k: v.shape for k, v in params.items()})
