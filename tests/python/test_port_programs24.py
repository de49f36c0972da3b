"""Whole programs as PyTorch users write them (issue 37, twenty-fourth programs round)."""
import os

from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs24"), "u")
