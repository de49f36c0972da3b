"""send / recv / isend / irecv / batch_isend_irecv in the orders torch's gloo accepts: each end
may split what it moves into batches differently from its peer (a pipeline stage that `isend`s
its activation then `recv`s the gradient, while the next stage `irecv().wait()`s then
`send`s), tags given or not, and rings and pipelines over every rank of the job. Each rank
checks what it received against the values its peers sent. Every test runs under
test_dist_user_programs4's time limit: an order that hangs ends the job."""
import pytest

import meshflow as mf
import meshflow.distributed as dist

from test_dist_user_programs2 import RANK, WORLD, pg  # noqa: F401
from test_dist_user_programs4 import time_limit  # noqa: F401 (autouse: every test here is under it)


def value(sender, k, dtype=mf.float32):
    """The k-th tensor `sender` sends: distinct per sender and per message."""
    return (mf.arange(6).reshape(2, 3) + 100 * sender + 10 * k).to(dtype)


def received(sender, k, dtype=mf.float32):
    into = mf.zeros(2, 3, dtype=dtype)
    return into, lambda: into.tolist() == value(sender, k, dtype).tolist()


def pipeline_isend_then_recv(peer):
    # Rank 0 sends its activation and receives the gradient in one batch; rank 1 receives,
    # waits, then sends.
    into, ok = received(peer, 0)
    if RANK == 0:
        work = dist.isend(value(0, 0), dst=peer)
        dist.recv(into, src=peer)
        work.wait()
    else:
        dist.irecv(into, src=peer).wait()
        dist.send(value(1, 0), dst=peer)
    assert ok()


def two_isends_two_waited_recvs(peer):
    # Tags name the messages; both arrive in the order sent.
    if RANK == 0:
        works = [dist.isend(value(0, k), dst=peer, tag=k + 1) for k in range(2)]
        for w in works:
            w.wait()
    else:
        for k in range(2):
            into, ok = received(peer, k)
            dist.recv(into, src=peer, tag=k + 1)
            assert ok()


def send_recv_against_one_batch(peer):
    # Blocking calls on rank 0; rank 1's irecv and isend go as one batch.
    if RANK == 0:
        dist.send(value(0, 0), dst=peer)
        into, ok = received(peer, 0, mf.int64)
        dist.recv(into, src=peer)
        assert ok()
    else:
        into, ok = received(peer, 0)
        work = dist.irecv(into, src=peer)
        out = dist.isend(value(1, 0, mf.int64), dst=peer)
        work.wait()
        out.wait()
        assert ok()


def interleaved_with_leftovers(peer):
    # Rank 0: isend, isend, recv (one batch of three); rank 1: recv, then isend + recv.
    if RANK == 0:
        works = [dist.isend(value(0, k), dst=peer) for k in range(2)]
        into, ok = received(peer, 0, mf.int64)
        dist.recv(into, src=peer)
        assert ok()
        for w in works:
            w.wait()
    else:
        first, ok_first = received(peer, 0)
        dist.recv(first, src=peer)
        work = dist.isend(value(1, 0, mf.int64), dst=peer)
        second, ok_second = received(peer, 1)
        dist.recv(second, src=peer)
        work.wait()
        assert ok_first() and ok_second()


def batch_against_blocking(peer):
    if RANK == 0:
        into, ok = received(peer, 0)
        works = dist.batch_isend_irecv([dist.P2POp(dist.isend, value(0, 0), peer),
                                        dist.P2POp(dist.irecv, into, peer)])
        for w in works:
            w.wait()
        assert ok()
    else:
        into, ok = received(peer, 0)
        dist.recv(into, src=peer)
        dist.send(value(1, 0), dst=peer)
        assert ok()


@pytest.mark.skipif(WORLD < 2, reason="a pair of ranks")
@pytest.mark.parametrize("order", [pipeline_isend_then_recv, two_isends_two_waited_recvs, send_recv_against_one_batch,
                                   interleaved_with_leftovers, batch_against_blocking], ids=lambda f: f.__name__)
def test_each_end_may_batch_its_transfers_its_own_way(pg, order):
    if RANK < 2:
        order(1 - RANK)
    dist.barrier()


def test_a_ring_where_every_rank_isends_then_recvs_or_sends_after_receiving(pg):
    # Every rank passes its value on around the ring WORLD - 1 times, the even ranks
    # sending first (isend then recv), the odd ones receiving first (irecv().wait() then send).
    nxt, prev = (RANK + 1) % WORLD, (RANK - 1) % WORLD
    if WORLD < 2:
        pytest.skip("a ring of several ranks")
    carried = value(RANK, 0)
    total = carried.clone()
    for step in range(WORLD - 1):
        into = mf.zeros(2, 3)
        if RANK % 2 == 0:
            work = dist.isend(carried, dst=nxt, tag=step)
            dist.recv(into, src=prev, tag=step)
            work.wait()
        else:
            dist.irecv(into, src=prev, tag=step).wait()
            dist.send(carried, dst=nxt, tag=step)
        carried = into
        total = total + into
    assert total.tolist() == sum(value(r, 0) for r in range(WORLD)).tolist()


def test_a_pipeline_over_every_rank_forward_then_backward(pg):
    # Stage r receives its activation from r - 1 (irecv().wait()), isends r + 1 its own,
    # then receives the gradient from r + 1 (recv) and sends r - 1 its own (send): the middle
    # stages' isend and recv go as one batch, which their neighbours meet in two.
    if WORLD < 2:
        pytest.skip("a pipeline of several stages")
    activation = value(0, 0)
    if RANK > 0:
        activation = mf.zeros(2, 3)
        dist.irecv(activation, src=RANK - 1).wait()
    activation = activation * 2
    work = dist.isend(activation, dst=RANK + 1) if RANK < WORLD - 1 else None
    gradient = activation + 1
    if RANK < WORLD - 1:
        gradient = mf.zeros(2, 3)
        dist.recv(gradient, src=RANK + 1)
        work.wait()
    if RANK > 0:
        dist.send(gradient, dst=RANK - 1)
    assert gradient.tolist() == (value(0, 0) * 2 ** WORLD + 1).tolist()


@pytest.mark.skipif(WORLD < 2, reason="a pair of ranks")
def test_recv_without_src_in_a_pair_takes_the_other_rank(pg):
    """torch's recv from any source: in a group of two only the other member can send, so
    recv returns it (torch's return value)."""
    pair = dist.new_group([0, 1])
    if RANK in (0, 1):
        into = mf.zeros(2, 3)
        if RANK == 0:
            assert dist.recv(into, group=pair) == 1
            assert into.tolist() == value(1, 0).tolist()
        else:
            dist.send(value(1, 0), dst=0, group=pair)
    dist.barrier()


@pytest.mark.skipif(WORLD < 3, reason="several ranks that may send")
def test_recv_without_src_among_several_takes_each_sender_once_in_its_order(pg):
    """A parameter server: rank 0 receives from any worker, each worker sending twice (its
    two messages arrive in its order); recv returns the sender, and a received message is its."""
    if RANK == 0:
        got = {}
        for _ in range(2 * (WORLD - 1)):
            into = mf.zeros(2, 3)
            sender = dist.recv(into)
            k = len(got.setdefault(sender, []))
            got[sender].append(into.tolist() == value(sender, k).tolist())
        assert got == {r: [True, True] for r in range(1, WORLD)}
    else:
        dist.send(value(RANK, 0), dst=0)
        dist.send(value(RANK, 1), dst=0)
    dist.barrier()


@pytest.mark.skipif(WORLD < 3, reason="several ranks that may send")
def test_irecv_without_src_after_a_send_to_a_worker_and_named_receives_beside_it(pg):
    """A task farm: rank 0 irecvs from any source, then sends each worker its task (one batch
    with the receive), and the reply of whichever worker answers first lands in it (its
    work's source names it); the other replies come by name. recv_object_list from any source
    takes both of its messages from the one sender."""
    if RANK == 0:
        first = mf.zeros(2, 3)
        work = dist.irecv(first)
        for r in range(1, WORLD):
            dist.send(value(0, r), dst=r)
        work.wait()
        sender = work.source
        assert sender in range(1, WORLD) and first.tolist() == (value(0, sender) + 1).tolist()
        for r in range(1, WORLD):
            if r != sender:
                into = mf.zeros(2, 3)
                assert dist.recv(into, src=r) == r and into.tolist() == (value(0, r) + 1).tolist()
        objects = [None]
        senders = {dist.recv_object_list(objects) for _ in range(1, WORLD)}
        assert senders == set(range(1, WORLD)) and objects[0]["rank"] in senders
    else:
        task = mf.zeros(2, 3)
        dist.recv(task, src=0)
        dist.send(task + 1, dst=0)
        dist.send_object_list([{"rank": RANK, "pad": "x" * RANK * 100}], dst=0)
    dist.barrier()


@pytest.mark.skipif(WORLD < 4, reason="a group of three in a larger world")
def test_irecv_without_src_in_a_group_takes_only_its_members(pg):
    """Rank 0 receives from any member of [0, 2, 3] while rank 1's message (sent at once)
    waits for the named receive after them."""
    group = dist.new_group([0, 2, 3])
    if RANK == 1:
        dist.send(value(1, 0), dst=0)
    elif RANK == 0:
        senders = []
        for _ in range(2):
            into = mf.zeros(2, 3)
            senders.append(dist.recv(into, group=group))
            assert into.tolist() == value(senders[-1], 0).tolist()
        assert sorted(senders) == [2, 3]
        into = mf.zeros(2, 3)
        assert dist.recv(into, src=1) == 1 and into.tolist() == value(1, 0).tolist()
    elif RANK in (2, 3):
        dist.send(value(RANK, 0), dst=0, group=group)
    dist.barrier()
