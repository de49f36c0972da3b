"""torch.futures.Future, for the code that makes or chains one: a DDP communication hook's
result, and what `work.get_future()` returns. meshflow's collectives are ordered by the VM
with the ops after them, so a future here holds its value at once (set_result) and `then`
runs its callback at the call; waiting reads nothing more."""

__all__ = ["Future", "collect_all", "wait_all"]


class Future:
    """A value that is set once (set_result / set_exception) and read with wait() / value()."""

    def __init__(self, *, devices=None):
        self._set, self._value, self._error, self._callbacks = False, None, None, []

    def done(self):
        return self._set

    def set_result(self, result):
        self._finish(result, None)

    def set_exception(self, result):
        self._finish(None, result)

    def _finish(self, value, error):
        if self._set:
            raise RuntimeError("Future: its result is already set; a future is set once")
        self._set, self._value, self._error = True, value, error
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(self)

    def wait(self):
        return self.value()

    def value(self):
        if not self._set:
            raise RuntimeError("Future.value: the result is not set yet (meshflow runs no work that would set it)")
        if self._error is not None:
            raise self._error
        return self._value

    def then(self, callback):
        """A future holding callback(self) once this one is set (its exception if it raises)."""
        out = Future()

        def run(done):
            try:
                out.set_result(callback(done))
            except Exception as error:  # noqa: BLE001 (torch hands any error to the chained future)
                out.set_exception(error)
        self.add_done_callback(run)
        return out

    def add_done_callback(self, callback):
        if self._set:
            callback(self)
        else:
            self._callbacks.append(callback)


def collect_all(futures):
    """A future set once every one of `futures` is, holding that list (torch's)."""
    futures = list(futures)
    out, left = Future(), [len(futures)]

    def one_done(_):
        left[0] -= 1
        if left[0] == 0:
            out.set_result(futures)
    if not futures:
        out.set_result(futures)
    for future in futures:
        future.add_done_callback(one_done)
    return out


def wait_all(futures):
    """Each future's value, in order (torch's; the first one that failed raises its error)."""
    return [future.wait() for future in futures]
