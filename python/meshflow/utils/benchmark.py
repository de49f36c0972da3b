"""torch.utils.benchmark's Timer, as tutorials time a statement with it: Python's timeit
around the statement, waiting for every op issued (meshflow's ops run asynchronously, as
CUDA's do for torch's Timer) before each clock reading. The measurements are this machine's
seconds per run; torch's instruction counts (`collect_callgrind`) and `Compare` tables are
not there.

Thread-safety: a Timer is one caller's."""
import statistics
import timeit

from .. import _C

__all__ = ["Timer", "Measurement"]


class Measurement:
    """Seconds per run of each block of `number_per_run` runs (torch's Measurement)."""

    def __init__(self, number_per_run, raw_times, label=None, sub_label=None, description=None, stmt=""):
        self.number_per_run, self.raw_times = number_per_run, list(raw_times)
        self.label, self.sub_label, self.description, self.stmt = label, sub_label, description, stmt

    @property
    def times(self):
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def mean(self):
        return statistics.fmean(self.times)

    @property
    def median(self):
        return statistics.median(self.times)

    @property
    def iqr(self):
        if len(self.times) < 2:
            return 0.0
        q = statistics.quantiles(self.times, n=4)
        return q[2] - q[0]

    def __repr__(self):
        return (f"<meshflow.utils.benchmark.Measurement object at {id(self):#x}>\n{self.label or ''}\n"
                f"{self.stmt}\n  Median: {self.median * 1e6:.2f} us\n  {len(self.times)} measurements, "
                f"{self.number_per_run} runs per measurement")


class Timer:
    """torch's Timer(stmt, setup, globals=, label=, sub_label=, description=, num_threads=)."""

    def __init__(self, stmt="pass", setup="pass", global_setup="", timer=timeit.default_timer, globals=None,
                 label=None, sub_label=None, description=None, env=None, num_threads=1, language="python"):
        if language not in ("python", "py"):
            raise ValueError(f"Timer: language {language!r}; meshflow times Python statements only")
        self._stmt, self._labels = stmt, (label, sub_label, description)
        self._timer = timeit.Timer(stmt=f"{stmt}\n_sync()", setup=setup, timer=timer,
                                   globals={**(globals or {}), "_sync": _C.synchronize})

    def _measure(self, number, repeats):
        return Measurement(number, [self._timer.timeit(number) for _ in range(repeats)], *self._labels,
                           stmt=self._stmt)

    def timeit(self, number=1000000):
        self._timer.timeit(1)  # a warm-up run, as torch's
        return self._measure(number, 1)

    def repeat(self, repeat=-1, number=-1):
        raise NotImplementedError("Timer.repeat is not there (nor in torch): use timeit or blocked_autorange")

    def blocked_autorange(self, callback=None, min_run_time=0.2):
        """Blocks of runs, each about a millisecond or more, until min_run_time has passed."""
        once = max(self._timer.timeit(1), 1e-9)
        number = max(1, int(1e-3 / once))
        times, total = [], 0.0
        while total < min_run_time or not times:
            t = self._timer.timeit(number)
            times.append(t)
            total += t
            if callback is not None:
                callback(number, t)
        return Measurement(number, times, *self._labels, stmt=self._stmt)

    adaptive_autorange = blocked_autorange
