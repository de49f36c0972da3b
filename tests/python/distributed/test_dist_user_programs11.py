"""An eleventh batch of programs, written blind as torch.distributed users write them (issue
37's hidden set, its kinds), kept as the programs themselves in user_programs11/, each ported
by replacing `torch` with `meshflow`. Its focus is DDP's own options and the collectives'
less common arguments. On 2 ranks (d*): find_unused_parameters with a branch chosen by rank,
a layer skipped on odd steps, a head no rank uses and a dict output, beside no_sync; no_sync's
local gradients then their average, and accumulation with a nullcontext, AdamW, clipping and
StepLR; static_graph with a frozen layer and with reentrant activation checkpointing; tiny
buckets with gradient_as_bucket_view and zero_grad(set_to_none=False); communication hooks
(allreduce_hook with the WORLD group, fp16 and bf16 compression, a hook of one's own returning
a chained future); DistributedSampler padding an uneven dataset over epochs, drop_last, a dict
dataset under a DataLoader, and an evaluation split merged with all_gather_object; join() on
uneven inputs (dividing by the initial world size or by the ranks still stepping) and
distributed.algorithms.join.Join; SyncBatchNorm.convert_sync_batchnorm's structure and
buffers; ZeroRedundancyOptimizer with momentum, Adam under a bucket view and StepLR, weight
decay groups, and a consolidated state resumed on every rank; fully_shard training read with
full_tensor and saved whole on rank 0 for a plain model, FullyShardedDataParallel's
FULL_STATE_DICT with rank0_only; the object collectives with ragged dicts, src=1, dst=1 and a
scatter of configs; all_to_all_single with split sizes exchanged first, all_to_all,
reduce_scatter_tensor (SUM, MAX), monitored_barrier, group queries; a launch that reads
torchrun's variables itself; a checkpoint saved to bytes on rank 0 and broadcast, one loaded
with a map_location function and resumed; metrics and top-2 accuracy all-reduced, early
stopping with patience on rank 0, CPU autocast to bfloat16 under DDP (with LayerNorm, and
with no_sync), a hand-split MLP over send / recv and a two-stage pipeline of micro-batches over
isend / irecv, a custom autograd Function with clipping and parameters_to_vector, DDP's
broadcast of rank 0's initial state, broadcast_buffers=False, agreeing on a step count with
MIN; written after the fixes, FSDP1's full state dict loaded back, Join's keyword
arguments, a compression hook under no_sync and a hook of one's own under
find_unused_parameters, join() over a sampler's uneven subsets, ZeRO and DDP on a group made
with new_group, a confusion matrix reduced to rank 0, a configuration broadcast then a
checkpoint loaded with a dict map_location; then @record with Backend.GLOO and a timeout,
PRODUCT / BAND / BOR reductions through async work and futures, get_process_group_ranks and
tagged sends, distributed.nn.functional.all_reduce's gradient, train / eval switching with
BatchNorm, clipping by the inf norm with foreach Adam, a LambdaLR warmup over a drop_last
sampler, gather to dst=1 and scatter from src=1, DDP's named parameters, buffers and
state-dict keys. On 4 ranks (f*): uneven all_to_all_single, DistributedSampler over 4 and over 2
replicas, ZeRO's uneven partition, the object collectives in groups with global dst / src,
reduce_scatter_tensor over the world and over pairs, a 2 x 2 pipeline with data-parallel
stage groups, join() on 4 uneven ranks and per pair, DDP per pair with the fp16 hook, a
sampler per pair gathered with all_gather_object in the pair. Each prints
`RESULT rank value` lines, which must equal, rank by rank, what the same program printed under
PyTorch (gloo, torchrun's variables from mpirun's): user_programs11/expected.json. Every test
runs under test_dist_user_programs4's time limit."""
import os

import pytest

import meshflow.distributed as dist

from test_dist_user_programs2 import RANK, WORLD, pg  # noqa: F401 (a fixture)
from test_dist_user_programs4 import time_limit  # noqa: F401 (autouse: every test here is under it)
from test_dist_user_programs9 import prints_what_torch_printed, recorded

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "user_programs11")
RANKS = {"d": 2, "f": 4}  # the job size each kind was recorded on
EXPECTED, PROGRAMS = recorded(HERE, RANKS)


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_prints_what_torch_printed(name):
    prints_what_torch_printed(HERE, EXPECTED, RANKS, name)


def test_join_refuses_what_it_cannot_shadow(pg):
    """Join takes one DistributedDataParallel (and ZeroRedundancyOptimizers over it,
    user_programs14's d34): a ZeroRedundancyOptimizer alone (nothing tells the ranks which
    still step), a second model or another object raises at once, on every rank, rather than
    hang."""
    import meshflow as mf
    from meshflow.distributed.algorithms.join import Join
    from meshflow.distributed.optim import ZeroRedundancyOptimizer
    from meshflow.nn.parallel import DistributedDataParallel as DDP
    a, b = DDP(mf.nn.Linear(2, 2)), DDP(mf.nn.Linear(2, 2))
    opt = ZeroRedundancyOptimizer(a.parameters(), optimizer_class=mf.optim.SGD, lr=0.1)
    with pytest.raises(NotImplementedError, match="one DistributedDataParallel"):
        Join([opt])
    with pytest.raises(NotImplementedError, match="can join here, got Linear"):
        Join([a, mf.nn.Linear(2, 2)])
    with pytest.raises(NotImplementedError, match="one DistributedDataParallel"):
        Join([a, b])
    with pytest.raises(ValueError, match="at least one"):
        Join([])


def test_fsdp_state_dict_types(pg):
    """FullyShardedDataParallel's state dict is whole tensors (FULL_STATE_DICT, FSDP1's
    default), empty off rank 0 under rank0_only, the shards under SHARDED_STATE_DICT, and
    the setting comes back after the context; LOCAL_STATE_DICT (flat parameters) raises."""
    import meshflow as mf
    from meshflow.distributed.fsdp import (FullyShardedDataParallel as FSDP, FullStateDictConfig, StateDictType)
    model = FSDP(mf.nn.Linear(2 * WORLD, 3))
    full = model.state_dict()
    assert not full["weight"].is_global and tuple(full["weight"].shape) == (3, 2 * WORLD)
    with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT, FullStateDictConfig(rank0_only=True)):
        assert (len(model.state_dict()) == 2) == (RANK == 0)
    with FSDP.state_dict_type(model, StateDictType.SHARDED_STATE_DICT):
        assert model.state_dict()["weight"].is_global
    assert not model.state_dict()["weight"].is_global
    with pytest.raises(NotImplementedError, match="LOCAL_STATE_DICT"):
        FSDP.set_state_dict_type(model, StateDictType.LOCAL_STATE_DICT)


def test_bitwise_reductions_take_integers_only(pg):
    """ReduceOp.BAND / BOR / BXOR reduce integer and bool tensors bit by bit, as torch's
    gloo; a float tensor raises on every rank (torch's gloo refuses it too)."""
    import meshflow as mf
    t = mf.tensor([0b0110 | (1 << (RANK + 4)), 1], dtype=mf.int32)
    dist.all_reduce(t, op=dist.ReduceOp.BXOR)
    assert t.tolist() == [(0b0110 if WORLD % 2 else 0) | sum(1 << (r + 4) for r in range(WORLD)), WORLD % 2]
    flags = mf.tensor([True, RANK == 0])
    dist.all_reduce(flags, op=dist.ReduceOp.BOR)
    assert flags.tolist() == [True, True]
    with pytest.raises(RuntimeError, match="integer or bool"):
        dist.all_reduce(mf.ones(2), op=dist.ReduceOp.BAND)
    assert dist.Backend("GLOO") == dist.Backend.GLOO == "gloo" and isinstance(dist.Backend("mpi"), str)
