# Source: pytorch/examples regression/main.py (BSD-3-Clause). Changed: torch.randn -> a seeded NumPy
# generator (torch's draws differ by design), a batch cap.
# TOL 2e-3 (x^4 features, 200 SGD steps: rounding grows; the first 180 steps agree to 1e-4)
#!/usr/bin/env python
from __future__ import print_function
from itertools import count

import numpy as np
import torch

rng = np.random.RandomState(0)
import torch.nn.functional as F

POLY_DEGREE = 4
W_target = torch.from_numpy(rng.standard_normal((POLY_DEGREE, 1)).astype(np.float32)) * 5
b_target = torch.from_numpy(rng.standard_normal(1).astype(np.float32)) * 5


def make_features(x):
    """Builds features i.e. a matrix with columns [x, x^2, x^3, x^4]."""
    x = x.unsqueeze(1)
    return torch.cat([x ** i for i in range(1, POLY_DEGREE+1)], 1)


def f(x):
    """Approximated function."""
    return x.mm(W_target) + b_target.item()


def poly_desc(W, b):
    """Creates a string description of a polynomial."""
    result = 'y = '
    for i, w in enumerate(W):
        result += '{:+.2f} x^{} '.format(w, i + 1)
    result += '{:+.2f}'.format(b[0])
    return result


def get_batch(batch_size=32):
    """Builds a batch i.e. (x, f(x)) pair."""
    random = torch.from_numpy(rng.standard_normal(batch_size).astype(np.float32))
    x = make_features(random)
    y = f(x)
    return x, y


# Define model
fc = det(torch.nn.Linear(W_target.size(0), 1), seed=1, scale=0.1)

for batch_idx in count(1):
    # Get data
    batch_x, batch_y = get_batch()

    # Reset gradients
    fc.zero_grad()

    # Forward pass
    output = F.smooth_l1_loss(fc(batch_x), batch_y)
    loss = output.item()
    if batch_idx % 20 == 1:
        print('batch {} loss {:.6f}'.format(batch_idx, loss))

    # Backward pass
    output.backward()

    # Apply gradients
    for param in fc.parameters():
        param.data.add_(-0.1 * param.grad)

    # Stop criterion
    if loss < 1e-3 or batch_idx == 300:
        break

print('Loss: {:.6f} after {} batches'.format(loss, batch_idx))
print('==> Learned function:\t' + poly_desc(fc.weight.view(-1), fc.bias))
print('==> Actual function:\t' + poly_desc(W_target.view(-1), b_target))
