"""torch.distributed.elastic.multiprocessing.errors: `@record` on a torchrun script's main.

As torch's, `record` writes an uncaught exception (its type, message and traceback, as JSON)
to the file TORCHELASTIC_ERROR_FILE names, when it names one, and raises it on; a
`SystemExit(0)` returns None. meshflow's launcher sets no such file: each rank's traceback
is printed and the job ends (README, "Failures"), so the decorator changes nothing there."""
import functools
import json
import os
import time
import traceback

__all__ = ["record", "ChildFailedError", "ErrorHandler", "get_error_handler"]


class ChildFailedError(Exception):
    """torch's error for a failed child of an elastic agent; meshflow has no agent that
    raises it, but scripts catch it by name."""

    def __init__(self, name, failures):
        self.name = name
        self.failures = failures
        super().__init__(f"{name} failed: {failures}")


class ErrorHandler:
    """Writes an exception to TORCHELASTIC_ERROR_FILE (torch's format: a `message` holding the
    text and `extraInfo` with the traceback and a timestamp)."""

    def initialize(self):
        pass

    def record_exception(self, e):
        path = os.environ.get("TORCHELASTIC_ERROR_FILE")
        if not path:
            return
        entry = {"message": {"message": f"{type(e).__name__}: {e}",
                             "extraInfo": {"py_callstack": traceback.format_exc(),
                                           "timestamp": str(int(time.time()))}}}
        with open(path, "w") as f:
            json.dump(entry, f)


def get_error_handler():
    return ErrorHandler()


def record(fn=None, error_handler=None):
    """Decorates a script's entry point: an uncaught exception is written to
    TORCHELASTIC_ERROR_FILE (when set) and raised on."""
    handler = error_handler or get_error_handler()

    def wrap(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            handler.initialize()
            try:
                return f(*args, **kwargs)
            except SystemExit as e:
                if e.code == 0 or e.code is None:
                    return None
                raise
            except Exception as e:
                handler.record_exception(e)
                raise
        return wrapper

    return wrap if fn is None else wrap(fn)
