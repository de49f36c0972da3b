"""A ninth batch of programs, written blind as torch.distributed users write them (issue 37's
hidden set, its kinds), kept as the programs themselves in user_programs9/, each ported by
replacing `torch` with `meshflow`. On 2 ranks (d*): init_process_group from torchrun's
environment, DDP with Adam, no_sync accumulation, find_unused_parameters, static_graph and
bucket views, two optimizers, a double model, BatchNorm with rank-0-only saving and loading in
every process with map_location="cpu", checkpoints saved by each rank and read by one,
resumed training, DistributedSampler's uneven and drop_last epochs, tensors made in forward
(positions, masks, zero states), packed LSTMs, transformer layers; hand-written data
parallelism (broadcast from rank 0, parameter averaging, async all-reduces, a ZeRO-style
reduce_scatter / all_gather_into_tensor step), metrics over all_gather / gather / reduce /
MAX / MIN / PRODUCT, early stopping, MoE routing with all_to_all_single,
scatter from rank 0, the object collectives. On 4 ranks (f*): groups that
are not the world, whose members alone make the calls (pairs, three of four, DDP per pair,
Megatron's tensor- and data-parallel groups, new_subgroups, DDP per pair with BatchNorm, the
object collectives, gather, async ops, reduce_scatter and all_to_all in groups, and non-members
that call too, which torch's skip). Each prints `RESULT rank value`
lines, which must equal, rank by rank, what the same program printed under PyTorch (gloo,
torchrun): user_programs9/expected.json. Meshflow's own idioms (g*: placement + SBP,
to_global of each rank's rows, Megatron column / row linears in a graph, SyncBatchNorm, a
graph with BatchNorm, a global checkpoint loaded in one process) must print on 2 ranks what
they print in one process (recorded the same way). Every test runs under
test_dist_user_programs4's time limit."""
import json
import os

import pytest

import meshflow.distributed as dist

from test_dist_user_programs2 import RANK, WORLD
from test_dist_user_programs4 import time_limit  # noqa: F401 (autouse: every test here is under it)
from test_dist_user_programs7 import close
from test_dist_user_programs8 import results

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "user_programs9")
RANKS = {"d": 2, "g": 2, "f": 4}  # the job size each kind was recorded on


def recorded(folder, ranks):
    """(torch's output of each program in `folder`, by name; the programs' names, sorted):
    the programs whose first letter `ranks` maps to the job size they were recorded on."""
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    return expected, sorted(name[:-3] for name in os.listdir(folder) if name[0] in ranks and name.endswith(".py"))


def prints_what_torch_printed(folder, expected, ranks, name, drop=()):
    """`drop`: keys of the programs' dict RESULTs left out of the comparison (known to differ)."""
    if WORLD != ranks[name[0]]:
        pytest.skip(f"recorded on {ranks[name[0]]} ranks")
    dist.destroy_process_group()  # the program makes and ends its own default group
    got, want = ([{k: v for k, v in r.items() if k not in drop} if isinstance(r, dict) else r for r in rs]
                 for rs in (results(os.path.join(folder, f"{name}.py")), expected[name][str(RANK)]))
    assert close(got, want, 1e-4, 1e-5), f"{name} on rank {RANK}: {got} != torch's {want}"


EXPECTED, PROGRAMS = recorded(HERE, RANKS)


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_prints_what_torch_printed(name):
    prints_what_torch_printed(HERE, EXPECTED, RANKS, name)
