"""Whole programs as PyTorch users write them (issue 37, twentieth programs round), focused on
whole training and inference programs and the module and optimizer surface around them: a
ResNet with BatchNorm, HF-style GPT-2 generation with a KV cache and left padding, LSTM
language models (tied weights, truncated BPTT), DataLoader loops (samplers, collate_fn,
iterable datasets), checkpoint and resume, in-place idioms, torch.compile of modules and
functions, nn.utils (parametrize, weight_norm, spectral_norm, orthogonal, clip_grad_*, rnn
packing, prune, fusion), less common optimizers (LBFGS, Rprop, ASGD, NAdam, RAdam, Adamax,
SparseAdam, Adafactor) and schedulers (ReduceLROnPlateau, SequentialLR, ChainedScheduler,
PolynomialLR, CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR), torch.utils.checkpoint,
nn.init, module, optimizer and state_dict hooks, non-persistent buffers, named_modules
traversal, grad-mode decorators, torch.func and half / bfloat16 inference. Each program in
port_programs20/ is torch's spelling, run unchanged but for its imports, and must agree with
what PyTorch 2 printed for it (expected.json), as test_port_programs9's."""
import os

from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs20"), "z")
