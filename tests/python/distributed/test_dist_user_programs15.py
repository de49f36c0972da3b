"""A fifteenth batch of 2-rank programs, written blind (issue 37's hidden set, its kinds),
kept as the programs themselves in user_programs15/, each ported by replacing `torch` with
`meshflow` and printing `RESULT rank value` lines that must equal, rank by rank, what the same
program printed under PyTorch (gloo, torchrun's variables; user_programs15/expected.json).
Its focus is the setup and the parallelisms torch users reach for after DDP:
torchrun's environment (env:// with timeout=, LOCAL_RANK, destroy_process_group and a second
init, a main() with setup / cleanup), DDP under CPU autocast to bfloat16 with a disabled
GradScaler, no_sync accumulation, evaluation all-reducing correct / total, early stopping
broadcast from rank 0, DistributedSampler under a DataLoader (uneven, shuffled with a seed,
drop_last), rank-0 logging and per-rank seeds, a model EMA, SyncBatchNorm's conversion, the
best checkpoint saved on rank 0; FSDP1 with size-based and transformer wrap policies, its full,
sharded (through DCP) and optimizer state dicts (FSDP.optim_state_dict /
optim_state_dict_to_load); FSDP2 per layer then the root, its full state dict saved on rank 0
into a plain model, set_requires_gradient_sync accumulation; DCP of DDP and FSDP2 models with
their optimizers (plain dicts, a Stateful AppState, get / set_state_dict, a scheduler);
DeviceMesh and DTensor (distribute_tensor, redistribute, from_local with Partial, DTensor
parameters under Adam), tensor parallelism (Colwise / Rowwise MLP, attention heads split, a
SequenceParallel block, a row-parallel embedding with a column-parallel head, a full state
dict saved on rank 0); then OneCycleLR, gather_object metrics, a frozen backbone, a NaN guard
agreed by all ranks, distillation, running losses reduced every k steps. In meshflow's own
idioms (g*, expected_one_process.json: each prints on 2 ranks what it printed in one
process): to_global / to_local round trips beside a split batch, a training and an
evaluation nn.Graph over a BatchNorm model.
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
