"""A fourteenth batch of 2-rank programs, written blind (issue 37's hidden set, its kinds),
kept as the programs themselves in user_programs14/. Its focus is torch.distributed's
collective surface used directly, and DDP's corners, as torch users write them, each ported by
replacing `torch` with `meshflow` and printing `RESULT rank value` lines that must equal, rank
by rank, what the same program printed under PyTorch (gloo, torchrun's variables;
user_programs14/expected.json): all_to_all_single with uneven splits (MoE dispatch with the
counts exchanged first) and all_to_all of lists, reduce_scatter_tensor / reduce_scatter and
all_gather_into_tensor (a hand-written ZeRO step over parameters_to_vector), reduce to each
destination and all_reduce with every ReduceOp (AVG too, on reduce_scatter_tensor as well),
int and float64 counts; a model's parameters broadcast from rank 0, a state_dict broadcast
as an object from rank 1; new_group subgroups (get_rank / get_world_size of a group this rank
is not in: -1, get_process_group_ranks, get_global_rank, get_group_rank), the object
collectives in subgroups and to rank 1; P2POp / batch_isend_irecv rings, isend / irecv
handles, a shape-then-payload protocol, recv from any source; async_op work handles,
all-reduces set off by post-accumulate-grad hooks; gather / scatter with lists; monitored_barrier
and the introspection calls; a 2-stage pipeline sending activations and gradients by hand, and
a GPipe schedule of microbatches; DDP with default_hooks' allreduce / fp16_compress hooks and a
hand-written hook returning a future's then(), gradient_as_bucket_view with bucket_cap_mb,
join() on uneven inputs and Join([model, ZeroRedundancyOptimizer]), BatchNorm and a forward-
updated buffer under broadcast_buffers=False, frozen parts, unused parameters that change per
step (find_unused_parameters), static_graph with frozen and unused parts, two forwards before
one backward; ZeroRedundancyOptimizer (Adam under DDP, SGD over hand-averaged gradients,
consolidated on rank 0 or 1); DistributedSampler without shuffling (padding, drop_last, a
dataset of 1); evaluation gathering predictions with all_gather_object and with all_gather
(the sampler's interleaving undone); rank-0 saving behind a barrier, loading with map_location
(a string, a function) and weights_only, DDP's "module." prefix consumed. Written after the
fixes: collectives into views of a flat buffer, float16 / bfloat16 / int8 / uint8
collectives, an unsorted new_group with group_src / group_dst, work.result() and futures,
ZeRO with parameter groups and StepLR, per-rank checkpoints averaged on rank 0, ranks
training different heads under find_unused_parameters, a CLIP-style loss over
distributed.nn.functional.all_gather, clipping after DDP's average, non-reentrant activation
checkpointing, an EMA AveragedModel evaluated on rank 0, no_sync with a comm hook, generation
through model.module; then parameters broadcast as themselves (not .data), a BatchSampler over
DistributedSampler, a dict output with a key the loss never reads, metrics stacked into one
all-reduce and async all-reduces waited with futures.wait_all, two DDP models trained as a GAN.

In meshflow's own idioms (g*), each must print on 2 ranks what it printed in one process
(expected_one_process.json; a value only rank 0 computes is None on the others): global
tensors on a placement of 2 with split / broadcast / partial-sum SBP (a partial sum made from
each rank's share, matmuls whose SBP meet, reductions over and across the split dim, a
gradient of a broadcast weight); a graph with two BatchNorms switched between training and
evaluation, an evaluation graph beside eager; local constants, an index tensor, a buffer and
zeros sized by the global batch made in forward meeting a split batch; every rank evaluating
and saving the best checkpoint, rank 0 alone logging, the checkpoint reloaded. k00 trains a
graph with a row-split embedding, a column-split head, BatchNorm and SGD with momentum and a
StepLR, saves after 2 steps (user_programs14/k00_saved_on_two_ranks, saved on 2 ranks), and
continues; k01 reads that checkpoint into a plain local model, optimizer and scheduler in
every process of a job of 1, 2 or 4 ranks and must continue as k00 did. Every test runs under
test_dist_user_programs4's time limit."""
import json
import os

import pytest

from test_dist_user_programs4 import time_limit  # noqa: F401 (autouse: every test here is under it)
from test_dist_user_programs9 import prints_what_torch_printed, recorded
from test_dist_user_programs13 import continues_as_the_saver, prints_what_one_process_printed

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "user_programs14")
RANKS = {"d": 2}  # the job size each torch program was recorded on
EXPECTED, PROGRAMS = recorded(HERE, RANKS)
with open(os.path.join(HERE, "expected_one_process.json")) as f:
    ONE_PROCESS = json.load(f)
OWN_IDIOMS = sorted(name for name in ONE_PROCESS if not name.startswith("k01"))
# test_dist_user_programs13's class: a convolution's bias right before a BatchNorm has a
# gradient of rounding noise only, which Adam moves by up to lr per step; the validation
# losses rank 0 logs read it (with bias=False the program agrees in every key).
BIAS_BEFORE_NORM_UNDER_ADAM = {"g03_rank0_evaluates_logs_global_model_all_ranks_compute": {"history"}}


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_prints_what_torch_printed(name):
    prints_what_torch_printed(HERE, EXPECTED, RANKS, name)


@pytest.mark.parametrize("name", OWN_IDIOMS)
def test_own_idiom_prints_what_it_printed_in_one_process(name):
    prints_what_one_process_printed(HERE, ONE_PROCESS, name, BIAS_BEFORE_NORM_UNDER_ADAM.get(name, ()))


def test_a_two_rank_graph_checkpoint_continues_in_a_local_model_on_every_rank_of_this_job():
    continues_as_the_saver(HERE, "k01_graph_ckpt_two_ranks_into_local_model_any_world",
                           ONE_PROCESS["k00_graph_split_embedding_saved_then_continued"])
