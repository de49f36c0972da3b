"""Code that only some ranks run (`if rank == 0:`) around calls on global tensors, which every
rank must make: the job ends within seconds, naming the call left behind and the rule,
instead of waiting for MESHFLOW_EXIT_TIMEOUT or MESHFLOW_COMM_TIMEOUT."""
import re
import time

import pytest

from jobs import launch_script

RULE = ("cannot complete: rank 1 of its group has exited without making it. Every rank must make the same calls on "
        "global tensors, in the same order: code that only some ranks run (if rank == 0:) may read, print, save")


@pytest.mark.parametrize("under_the_if, call", [
    ("mf.save(model.state_dict(), 'ckpt')", "save"),
    # The sum of a split weight is partial: its copy for reads is an all-reduce, rank 0's alone.
    ("print(model.weight.sum().item())", "sum (its copy for reads on any rank)"),
    ("print(model.weight)", "a global tensor"),
    ("model.weight.numpy()", "numpy()"),
])
def test_a_call_made_by_rank_0_only_ends_the_job_at_once_naming_it(tmp_path, under_the_if, call):
    started = time.monotonic()
    code, out = launch_script(tmp_path, f"""
        import meshflow as mf
        import meshflow.nn as nn
        model = nn.Linear(4, 3)
        model.to_global(mf.placement("cpu", ranks=[0, 1]), mf.sbp.split(0))
        if mf.env.get_rank() == 0:
            {under_the_if}
    """, timeout=50, MESHFLOW_EXIT_TIMEOUT="60", MESHFLOW_COMM_TIMEOUT="60")
    assert code != 0, out
    assert f"meshflow: rank 0: " in out and RULE in out, out
    assert call in out.split(RULE)[0], out
    assert time.monotonic() - started < 20, out
    assert "MPI_ABORT" not in out and "mpirun" not in out and "ORTE" not in out, out  # meshflow's words only


WAITS = "cannot complete: the ranks wait in different calls, which none can leave: "


@pytest.mark.parametrize("under_the_if, call", [
    ("print(model(x))", "the argument check of repr()"),  # a split output: only a collective gathers it
    ("mf.save(model.state_dict(), 'ckpt')", "the argument check of save"),
])
def test_a_call_made_by_rank_0_only_while_rank_1_goes_on_ends_the_job_naming_each_rank_s_call(
        tmp_path, under_the_if, call):
    # Rank 1 does not exit: it goes on to the next step's collectives, which rank 0 never
    # reaches. Every rank waits, none computes, in calls the other is not in: the watchdogs
    # find it from each other's statuses within seconds, and each rank names every rank's call.
    started = time.monotonic()
    code, out = launch_script(tmp_path, f"""
        import meshflow as mf
        import meshflow.nn as nn
        mesh = mf.placement("cpu", ranks=[0, 1])
        model = nn.Linear(4, 3).to_global(mesh, mf.sbp.broadcast)
        opt = mf.optim.SGD(model.parameters(), lr=0.1)
        x = mf.ones(4, 4).to_global(mesh, mf.sbp.broadcast).to_global(sbp=mf.sbp.split(0))
        for step in range(3):
            loss = model(x).square().mean()
            opt.zero_grad(); loss.backward(); opt.step()
            if mf.env.get_rank() == 0:
                {under_the_if}
    """, timeout=50, MESHFLOW_EXIT_TIMEOUT="60", MESHFLOW_COMM_TIMEOUT="60")
    assert code != 0, out
    for rank in (0, 1):
        assert f"meshflow: rank {rank}: " in out and WAITS in out, out
    found = out.split(WAITS)[1]
    assert f"rank 0 waits in all_gather (metadata) on group [0, 1] issued by {call}" in found, out
    # Rank 1 waits in the next step's collectives: its loss's twin, an all-reduce that carries
    # each rank's failure status in its payload.
    assert "rank 1" in found and "waits in all_reduce on group [0, 1] issued by mean (its copy for reads on any " \
                                 "rank)" in found, out
    assert "Every rank must make the same calls on global tensors" in found, out
    # mpirun itself may log an ORTE_ERROR_LOG line while it collects two ranks' exits at once
    # (its show_help); MPI's own error texts must not reach the user.
    assert "MPI_ERR" not in out, out
    assert time.monotonic() - started < 40, out  # well before MESHFLOW_COMM_TIMEOUT (60 s here)


def test_a_collective_save_beside_another_rank_s_twin_ends_the_job_naming_each_call(tmp_path):
    # Rank 0 saves a split state alone (only a collective save has it) while rank 1 reads the
    # sum of a split weight, whose twin every rank would convert: the ranks wait in different
    # calls, and both are named with what to write instead.
    code, out = launch_script(tmp_path, """
        import meshflow as mf
        import meshflow.nn as nn
        model = nn.Linear(6, 4).to_global(mf.placement("cpu", ranks=[0, 1]), mf.sbp.split(0))
        if mf.env.get_rank() == 0:
            mf.save(model.state_dict(), "model.pt")  # split: only a collective save has it
        print(model.weight.sum().item())
    """, timeout=50, MESHFLOW_EXIT_TIMEOUT="60", MESHFLOW_COMM_TIMEOUT="60")
    assert code != 0, out
    assert "rank 0 waits in all_gather (metadata) on group [0, 1] issued by the argument check of save of split or " \
           "partial tensors (collective: save on every rank, or to_global(sbp=broadcast) on every rank first" in out, out
    assert "rank 1 waits in all_reduce on group [0, 1] issued by sum (its copy for reads on any rank)" in out, out
    assert "MPI_ERR" not in out, out


UNEVEN = "the ranks made different numbers of calls on global tensors before this one"


def test_a_backward_some_ranks_ran_alone_without_communicating_raises_at_the_next_agreement_on_every_rank(
        tmp_path):
    under_the_if = "loss.backward()"  # broadcast weights and batch: no communication, rank 0's gradients alone
    # Nothing waits: rank 0 computed alone, and the step leaves its parameters other than
    # rank 1's. The next call every rank agrees on (a conversion, a read of a split value)
    # compares how many calls on global tensors each rank made and raises on every rank,
    # naming them, instead of going on with values that differ between ranks. (A read of a
    # broadcast value is local: it compares nothing.)
    code, out = launch_script(tmp_path, f"""
        import meshflow as mf
        import meshflow.nn as nn
        mesh = mf.placement("cpu", ranks=[0, 1])
        model = nn.Linear(4, 2).to_global(mesh, mf.sbp.broadcast)
        opt = mf.optim.SGD(model.parameters(), lr=0.5)
        x = mf.ones(3, 4).to_global(mesh, mf.sbp.broadcast)
        loss = model(x).sum()
        if mf.env.get_rank() == 0:
            with mf.set_grad_enabled("backward" in {under_the_if!r}):
                {under_the_if}
        opt.step()
        try:
            print(model.weight.to_global(sbp=mf.sbp.split(0)).sum().item())
        except ValueError as e:
            print(f"rank {{mf.env.get_rank()}} raised: {{e}}", flush=True)
        print(f"rank {{mf.env.get_rank()}} read {{model.weight.sum().item():.4f}}", flush=True)
    """, timeout=50)
    assert code == 0, out
    for rank in (0, 1):
        assert f"rank {rank} raised: to_global: {UNEVEN} (rank 0 made " in out, out
    assert "Every rank must make the same calls on global tensors" in out, out
    # Caught, the ranks count on alike from the failed read: the next one goes through.
    read = re.findall(r"rank [01] read (\S+)", out)
    assert len(read) == 2, out


def test_rank_0_reads_of_a_loss_a_metric_and_a_broadcast_model_need_no_other_rank(tmp_path):
    # DDP's logging, early stopping, printing and saving under `if rank == 0:`: the loss and
    # the metric of a split batch are partial; every rank made their twins, so rank 0 reads
    # them alone, while rank 1 goes on to the next step; the broadcast model is whole on
    # rank 0, which prints, evaluates and saves it alone.
    code, out = launch_script(tmp_path, """
        import meshflow as mf
        import meshflow.nn as nn
        import meshflow.nn.functional as F
        mesh = mf.placement("cpu", ranks=[0, 1])
        mf.manual_seed(0)
        model = nn.Linear(4, 3).to_global(mesh, mf.sbp.broadcast)
        opt = mf.optim.SGD(model.parameters(), lr=0.1)
        x = mf.ones(4, 4).to_global(mesh, mf.sbp.broadcast).to_global(sbp=mf.sbp.split(0))
        y = mf.tensor([0, 1, 2, 0]).to_global(mesh, mf.sbp.broadcast).to_global(sbp=mf.sbp.split(0))
        best = float("inf")
        for step in range(3):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
            correct = (model(x).argmax(1) == y).sum()
            if mf.env.get_rank() == 0:
                print(f"loss {loss:.4f} {loss.item():.4f} {float(loss):.4f} {correct.item()} {loss}", flush=True)
                if loss < best:
                    best = loss.item()
        if mf.env.get_rank() == 0:
            print(model.weight)
            with mf.no_grad():
                print("eval", model(mf.ones(2, 4)).sum().item(),  # a local batch: taken as broadcast
                      model(mf.tensor([[1.0] * 4], placement=mesh, sbp=mf.sbp.broadcast)).sum().item())
            mf.save(model.state_dict(), "model.safetensors")
            mf.save(model.state_dict(), "model.pt")
            print("saved", sorted(mf.load("model.safetensors")), flush=True)
        print(f"rank {mf.env.get_rank()} done {model.weight.sum().item():.5f}", flush=True)
    """, timeout=50)
    assert code == 0, out
    assert out.count("loss ") == 3 and "Parameter containing" in out or "tensor(" in out, out
    assert "saved ['bias', 'weight']" in out and "eval " in out, out
    done = re.findall(r"rank [01] done (\S+)", out)
    assert len(done) == 2 and done[0] == done[1], out


def test_a_group_member_that_skips_the_group_s_collective_ends_the_job_naming_each_rank_s_call(tmp_path):
    # On 4 ranks, rank 0 all-reduces over its pair while rank 1 went on to a barrier of the
    # whole job: torch's would wait until its timeout. The pair's communicator was made by
    # new_group, so rank 0 waits in a call the watchdogs see, and each rank names every call.
    started = time.monotonic()
    code, out = launch_script(tmp_path, """
        import meshflow as mf
        import meshflow.distributed as dist
        dist.init_process_group("gloo")
        pair = dist.new_group([0, 1])
        if dist.get_rank() == 0:
            dist.all_reduce(mf.ones(2), group=pair)
        dist.barrier()
    """, nproc=4, timeout=50, MESHFLOW_EXIT_TIMEOUT="60", MESHFLOW_COMM_TIMEOUT="60")
    assert code != 0, out
    found = out.split(WAITS)[1]
    assert "rank 0 waits in all_gather (metadata) on group [0, 1] issued by the argument check of " \
           "meshflow.distributed.all_reduce" in found, out
    assert "waits in all_gather (metadata) on group [0, 1, 2, 3] issued by the argument check of " \
           "meshflow.distributed.barrier" in found, out
    assert time.monotonic() - started < 40, out


def test_a_send_the_peer_never_receives_ends_the_job_naming_each_rank_s_call(tmp_path):
    # On 2 ranks a pair's transfers count in the channel of the world's ranks: rank 0's
    # exchange and rank 1's barrier are that channel's same place but different calls, which
    # the watchdogs tell apart by the collective (before, they took them for one call, and
    # the job waited for MESHFLOW_COMM_TIMEOUT).
    started = time.monotonic()
    code, out = launch_script(tmp_path, """
        import meshflow as mf
        import meshflow.distributed as dist
        dist.init_process_group("gloo")
        if dist.get_rank() == 0:
            dist.isend(mf.ones(4), 1)
        dist.barrier()
    """, timeout=50, MESHFLOW_EXIT_TIMEOUT="60", MESHFLOW_COMM_TIMEOUT="60")
    assert code != 0, out
    found = out.split(WAITS)[1]
    assert "rank 0 waits in exchange (point to point) on group [0, 1] issued by send" in found, out
    assert "rank 1 waits in all_gather (metadata) on group [0, 1]" in found, out
    assert time.monotonic() - started < 40, out


@pytest.mark.parametrize("paired_before", [False, True])
def test_a_send_the_peer_never_receives_on_3_ranks_ends_the_job_naming_each_rank_s_call(tmp_path, paired_before):
    # On 3 ranks the pair's transfers run on a communicator of the pair, made at its first
    # transfer: collective over the pair, so rank 0 waited in its creation for rank 1, which
    # the watchdogs did not see (the job waited for MESHFLOW_COMM_TIMEOUT). Now the creation is
    # watched as the pair's first call; once made, rank 0 waits in the exchange.
    started = time.monotonic()
    code, out = launch_script(tmp_path, f"""
        import meshflow as mf
        import meshflow.distributed as dist
        dist.init_process_group("gloo")
        if {paired_before}:
            if dist.get_rank() == 0:
                dist.send(mf.ones(4), 1)
            elif dist.get_rank() == 1:
                dist.recv(mf.zeros(4), 0)
            dist.barrier()
        if dist.get_rank() == 0:
            dist.isend(mf.ones(4), 1)
        dist.barrier()
    """, nproc=3, timeout=50, MESHFLOW_EXIT_TIMEOUT="60", MESHFLOW_COMM_TIMEOUT="60")
    assert code != 0, out
    found = out.split(WAITS)[1]
    waits = "exchange (point to point)" if paired_before else "creation of the group's communicator"
    assert f"rank 0 waits in {waits} on group [0, 1] issued by send" in out, out
    assert "rank 1 waits in all_gather (metadata) on group [0, 1, 2]" in found, out
    assert time.monotonic() - started < 30, out


DIFFERENT = "the ranks are in different calls (rank 0 in "


@pytest.mark.parametrize("under_the_if, rank_0_in", [
    # Rank 0's evaluation of a split batch pairs its collectives (the loss's agreement on its
    # targets, the all-reduce of its copy for reads) with rank 1's next training step: the same
    # sizes, so before, rank 0 printed rank 1's training loss and the job ended later.
    ("with mf.no_grad():\n    print('eval loss', F.cross_entropy(net(xv), yv).item())", "(under no_grad)"),
    # Under grad mode too, where the batch's logical shape differs from the training one's.
    ("print('eval loss', F.cross_entropy(net(xs), ys).item())", "calls on global tensors"),
    # A forward alone makes no collective; rank 0's next step's collectives come after it.
    ("with mf.no_grad():\n    net(xv)", "calls on global tensors"),
    # Rank 0 steps twice (rank 1 skips a step): the parameters part, silently before.
    ("opt.step()", "calls on global tensors"),
])
def test_ranks_in_different_calls_whose_collectives_pair_up_end_at_the_first_one_naming_each_call(
        tmp_path, under_the_if, rank_0_in):
    started = time.monotonic()
    body = "\n".join("                " + line for line in under_the_if.splitlines())
    code, out = launch_script(tmp_path, f"""
        import meshflow as mf
        import meshflow.nn as nn
        import meshflow.nn.functional as F
        mesh = mf.placement("cpu", ranks=[0, 1])
        mf.manual_seed(0)
        net = nn.Linear(4, 3).to_global(mesh, mf.sbp.broadcast)
        opt = mf.optim.SGD(net.parameters(), lr=0.1)
        def batch(rows, scale):
            x = (mf.arange(rows * 4).reshape(rows, 4) * scale).to_global(mesh, mf.sbp.broadcast)
            y = (mf.arange(rows) % 3).to_global(mesh, mf.sbp.broadcast)
            return x.to_global(sbp=mf.sbp.split(0)), y.to_global(sbp=mf.sbp.split(0))
        x, y = batch(8, 0.1)
        xv, yv = batch(8, 0.2)
        xs, ys = batch(6, 0.2)
        for step in range(3):
            loss = F.cross_entropy(net(x), y)
            loss.backward()
            if mf.env.get_rank() == 0:
{body}
            opt.step()
            opt.zero_grad()
        print("rank", mf.env.get_rank(), "done", loss.item(), flush=True)
    """, timeout=50, MESHFLOW_EXIT_TIMEOUT="60", MESHFLOW_COMM_TIMEOUT="60")
    assert code != 0, out
    for rank in (0, 1):
        assert f"meshflow: rank {rank}: " in out and DIFFERENT in out, out
    found = out.split(DIFFERENT)[1]
    assert rank_0_in in found.split("; rank 1 in ")[0], out
    assert "Every rank must make the same calls on global tensors" in out, out
    assert "eval loss" not in out and "done" not in out, out  # no value of another rank's call
    assert time.monotonic() - started < 20, out
