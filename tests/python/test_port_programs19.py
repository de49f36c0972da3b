"""Whole programs as PyTorch users write them (issue 37, nineteenth programs round), focused on
numerics and the tensor API as programs use it: dtype promotion with Python and NumPy scalars,
in-place ops that refuse a promotion, integer division and remainder signs, rounding, clamp
with tensors, reductions with dtype=, keepdim, several dims and empty inputs, NaN-aware ops,
cumulative ops, sorting, topk, unique, searchsorted, histograms, the scatter, gather and index
families, torch.linalg, the fft family, complex tensors, torch.distributions, seeded random
ops, sparse COO, einsum and friends, creation ops, printing, NumPy round trips and the Python
number protocol. Each program in port_programs19/ is torch's spelling, run unchanged but for
its imports, and must agree with what PyTorch 2 printed for it (expected.json), as
test_port_programs9's."""
import os

from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs19"), "y")
