"""Ops issued from several Python threads (a logging or checkpoint thread beside training):
the C++ core is driven by one thread at a time (its issuing lock, meshflow/vm/vm.h), and
threads waiting for it let the GIL go, so every thread's ops give what they give alone and
no thread waits forever on another."""
import threading

import numpy as np

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F


def train(steps=15, seed=0):
    mf.manual_seed(seed)
    model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 4))
    opt = mf.optim.AdamW(model.parameters(), lr=1e-2)
    x = mf.tensor(np.linspace(-1, 1, 64, dtype=np.float32).reshape(8, 8))
    y = mf.tensor(np.arange(8) % 4)
    losses = []
    for _ in range(steps):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
        losses.append(loss.detach())
    return [l.item() for l in losses]


def test_training_beside_a_logging_thread_gives_the_losses_of_training_alone():
    alone = train()
    seen, stop = [], threading.Event()

    def logger():  # reads values and makes tensors of its own while training issues
        while not stop.is_set():
            t = mf.arange(1024.0).reshape(32, 32) / 1024  # no draw: the generator is shared, as torch's
            seen.append(float((t @ t.T).sum().item()))

    log = threading.Thread(target=logger)
    log.start()
    try:
        model_losses = train()
    finally:
        stop.set()
        log.join(timeout=60)
    assert not log.is_alive()
    assert seen and all(v == seen[0] for v in seen)
    assert model_losses == alone


def test_threads_running_backward_at_once_each_get_their_own_gradients():
    results = [None] * 3
    barrier = threading.Barrier(3)

    def worker(i):
        barrier.wait()
        a = mf.tensor(np.full((64, 64), i + 1.0, dtype=np.float32), requires_grad=True)
        for _ in range(20):
            b = (a * a).sum()
            b.backward()
        results[i] = (b.item(), a.grad.numpy().copy())

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    for i, (value, grad) in enumerate(results):
        assert value == 64 * 64 * (i + 1.0) ** 2
        np.testing.assert_array_equal(grad, np.full((64, 64), 20 * 2 * (i + 1.0), dtype=np.float32))
