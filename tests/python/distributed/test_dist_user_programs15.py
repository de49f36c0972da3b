"""A fifteenth batch of 2-rank programs, written blind (issue 37's hidden set, its kinds),
kept as the programs themselves in user_programs15/, each ported by replacing `torch` with
`meshflow` and printing `RESULT rank value` lines that must equal, rank by rank, what the same
program printed under PyTorch (gloo, torchrun's variables; user_programs15/expected.json).
DOCSTRING_TODO
Every test runs under test_dist_user_programs4's time limit."""
import json
import os

import pytest

from test_dist_user_programs4 import time_limit  # noqa: F401 (autouse: every test here is under it)
from test_dist_user_programs9 import prints_what_torch_printed, recorded
from test_dist_user_programs13 import prints_what_one_process_printed

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "user_programs15")
RANKS = {"d": 2}  # the job size each torch program was recorded on
EXPECTED, PROGRAMS = recorded(HERE, RANKS)
ONE_PROCESS_PATH = os.path.join(HERE, "expected_one_process.json")
ONE_PROCESS = json.load(open(ONE_PROCESS_PATH)) if os.path.exists(ONE_PROCESS_PATH) else {}
# What stays different (docs/porting.md): a DTensor parameter's gradient is a DTensor (isinstance
# holds, its values agree) whose class is meshflow's Tensor, so type(grad).__name__ is "Tensor".
KNOWN_DIFFERENT = {"d25_dtensor_parameter_grad_full_tensor_adam": {"grad_type"}}


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_prints_what_torch_printed(name):
    prints_what_torch_printed(HERE, EXPECTED, RANKS, name, drop=KNOWN_DIFFERENT.get(name, ()))


@pytest.mark.parametrize("name", sorted(ONE_PROCESS))
def test_own_idiom_prints_what_it_printed_in_one_process(name):
    prints_what_one_process_printed(HERE, ONE_PROCESS, name)
