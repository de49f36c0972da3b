"""torch.profiler's surface, as the profiling tutorial and training scripts use it: `profile`
(a context manager with step(), a schedule and on_trace_ready), `record_function` (a labelled
region, as a context manager or a decorator), `ProfilerActivity`, `schedule` and
`tensorboard_trace_handler`; torch.autograd.profiler's `profile` and `record_function` are
the same. What is recorded: each labelled region's wall time, the ops it issued having run
(the region waits for them at its end, ops running asynchronously), and each profiled step's
time (`ProfilerStep#N`); not each op's own time, which the runtime's traces give
(docs/runtime.md). key_averages().table() and export_chrome_trace() report those events.

Thread-safety: a profile records the regions its own thread opens; use one per thread."""
import enum
import json
import threading
import time

__all__ = ["profile", "record_function", "ProfilerActivity", "ProfilerAction", "schedule",
           "tensorboard_trace_handler"]

_active = threading.local()  # the profile recording on this thread, if any


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1
    XPU = 2
    MTIA = 3


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, warmup, active, repeat=0, skip_first=0):
    """torch's: step number -> ProfilerAction, cycling wait, warmup and active steps (repeat
    cycles, 0 for ever) after skip_first steps."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise ValueError("Invalid profiler schedule arguments")

    def action(step):
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        cycle = wait + warmup + active
        if repeat > 0 and step // cycle >= repeat:
            return ProfilerAction.NONE
        within = step % cycle
        if within < wait:
            return ProfilerAction.NONE
        if within < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if within < cycle - 1 else ProfilerAction.RECORD_AND_SAVE
    return action


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    """on_trace_ready writing each trace as a Chrome trace file into dir_name."""
    import os
    import socket

    def handler(prof):
        os.makedirs(dir_name, exist_ok=True)
        name = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        prof.export_chrome_trace(os.path.join(dir_name, f"{name}.{time.time_ns()}.pt.trace.json"))
    return handler


class _Event:
    __slots__ = ("key", "start", "duration")

    def __init__(self, key, start, duration):
        self.key, self.start, self.duration = key, start, duration


class _Averages(list):
    """key_averages(): one row per region name (count, total and average wall time)."""

    def table(self, sort_by=None, row_limit=100, **_):
        rows = sorted(self, key=lambda r: -r[2]) if sort_by else list(self)
        header = f"{'Name':<40}{'Calls':>8}{'Total (ms)':>14}{'Avg (ms)':>14}"
        lines = [header, "-" * len(header)]
        lines += [f"{k[:40]:<40}{n:>8}{t * 1e3:>14.3f}{t * 1e3 / n:>14.3f}" for k, n, t in rows[:row_limit]]
        return "\n".join(lines)

    def __str__(self):
        return self.table()


class profile:
    """Records the labelled regions and steps of the code it wraps (see the module's note).
    The arguments torch takes are accepted; schedule and on_trace_ready work as torch's."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False, use_cuda=None,
                 enabled=True, **_):
        self.schedule, self.on_trace_ready, self.enabled = schedule, on_trace_ready, enabled
        self.step_num, self.events, self._step_start = 0, [], None

    def _recording(self):
        return self.enabled and (self.schedule is None or self.schedule(self.step_num) in (
            ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE))

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def start(self):
        _active.profile = self
        self._step_start = time.perf_counter()

    def stop(self):
        if getattr(_active, "profile", None) is self:
            _active.profile = None
        if self.on_trace_ready is not None and self.schedule is None:
            self.on_trace_ready(self)

    def step(self):
        """Ends a step: records it, and hands the trace on where the schedule saves it."""
        from . import synchronize
        synchronize()
        now = time.perf_counter()
        action = self.schedule(self.step_num) if self.schedule is not None else ProfilerAction.RECORD
        if self._recording():
            self.events.append(_Event(f"ProfilerStep#{self.step_num}", self._step_start, now - self._step_start))
        if action == ProfilerAction.RECORD_AND_SAVE and self.on_trace_ready is not None:
            self.on_trace_ready(self)
            self.events = []
        self.step_num += 1
        self._step_start = now

    def _record(self, key, start, duration):
        if self._recording():
            self.events.append(_Event(key, start, duration))

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        totals = {}
        for e in self.events:
            count, total = totals.get(e.key, (0, 0.0))
            totals[e.key] = (count + 1, total + e.duration)
        return _Averages((k, n, t) for k, (n, t) in totals.items())

    def events_list(self):
        return list(self.events)

    def export_chrome_trace(self, path):
        trace = [{"name": e.key, "ph": "X", "ts": e.start * 1e6, "dur": e.duration * 1e6, "pid": 0, "tid": 0}
                 for e in self.events]
        with open(path, "w") as f:
            json.dump({"traceEvents": trace}, f)


class record_function:
    """A labelled region of the profile recording on this thread (if any): its wall time,
    the ops it issued included. A context manager or a decorator, as torch's."""

    def __init__(self, name, args=None):
        self.name, self._start = name, None

    def __enter__(self):
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        prof = getattr(_active, "profile", None)
        if prof is not None:
            from . import synchronize
            synchronize()
            prof._record(self.name, self._start, time.perf_counter() - self._start)
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with record_function(self.name):
                return fn(*args, **kwargs)
        return wrapped
