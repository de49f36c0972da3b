"""Whole programs as PyTorch users write them (issue 37, twenty-third programs round), modeled on
PyTorch's official tutorials, the programs most users start from: the 60-minute blitz (tensors,
autograd, LeNet, a CIFAR-style loop), "What is torch.nn really?" (raw weights -> nn.Module ->
nn.Linear -> optim -> Dataset / DataLoader -> CNN -> nn.Sequential with a Lambda layer -> fit /
loss_batch), learning PyTorch with examples (NumPy-style tensors, autograd, LegendrePolynomial3,
nn, optim, custom and dynamic modules), the autograd tutorial (vector-Jacobian products,
retain_grad, requires_grad_, detach, no_grad), data loading (dict samples, callable transforms,
collate_fn), saving and loading (state_dict, whole models, checkpoints, strict=False warm starts),
char-RNN classification and generation, seq2seq with an attention GRU, DCGAN, a spatial
transformer, FGSM, DQN, neural style transfer with LBFGS, pruning, torch.func, parametrizations,
module hooks, the transformer language model, and inference mode. Each program in
port_programs23/ is torch's spelling, run unchanged but for its imports, and must agree with
what PyTorch 2 printed for it (expected.json), as test_port_programs9's."""
import os

from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs23"), "t")
