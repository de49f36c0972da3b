"""Caches that a program with changing shapes (a short last batch, variable sequence lengths)
fills: the op plan cache, the local call cache, the boxing plan cache and nn.Graph's compiled
plans keep at most their capacity, least recently used evicted first, so memory and thread
counts stay bounded over 2,000 distinct shapes."""
import os

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
from meshflow import _C


def placement():
    return mf.placement("cpu", ranks=[0])


def threads():
    return len(os.listdir("/proc/self/task"))


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.fixture
def small_caches():
    before = _C.infer_cache_stats()["capacity"]
    _C.set_plan_cache_capacity(64)
    yield 64
    _C.set_plan_cache_capacity(before)


def test_eager_plan_caches_stay_within_capacity(small_caches):
    for n in range(1, 2001):
        x = mf.tensor(np.ones((n, 3), np.float32), placement=placement(), sbp=mf.sbp.split(0))
        y = (x.to_global(sbp=mf.sbp.broadcast) * 2.0 + x).sum()
        z = mf.ones(n, 2) + 1.0  # local calls
        for stats in (_C.infer_cache_stats(), _C.boxing_cache_stats()):
            assert stats["entries"] <= small_caches
    assert y.item() == 3 * 3 * 2000 and z.sum().item() == 2 * 2 * 2000
    assert _C.infer_cache_stats()["entries"] == small_caches
    assert _C.infer_cache_stats()["capacity"] == small_caches


class Affine(nn.Graph):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def build(self, x):
        return self.model(x).sum()


def test_graph_keeps_at_most_max_compiled_plans_and_their_threads():
    mf.manual_seed(0)
    model = nn.Linear(3, 2)
    model.to_global(placement(), mf.sbp.broadcast)
    g = Affine(model)
    g.config.set_max_compiled(4)
    for n in range(1, 2001):
        x = mf.tensor(np.ones((n, 3), np.float32), placement=placement(), sbp=mf.sbp.broadcast)
        out = g(x)
        assert len(g._compiled) <= 4
        if n == 200:  # the process's own threads (workers, pools) have started by now
            threads_before, rss_before = threads(), rss_mb()
        elif n % 200 == 0:
            assert threads() <= threads_before
    expected = model(x).sum().item()
    assert out.item() == pytest.approx(expected, rel=1e-6)
    assert rss_mb() - rss_before < 200, "compiled plans (arenas) were kept"
    with pytest.raises(ValueError, match="int >= 1"):
        g.config.set_max_compiled(0)
