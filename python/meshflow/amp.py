"""meshflow.amp: torch.amp's spellings of mixed precision, so ported training loops run as written.

    scaler = mf.amp.GradScaler()
    with mf.amp.autocast("cpu", dtype=mf.bfloat16):
        loss = model(x, y)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)                      # optional: before clipping
    mf.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)                          # skipped when a gradient is inf or NaN
    scaler.update()

`autocast` is mf.autocast (bfloat16, float32's range, or float16, whose gradients can
underflow). `GradScaler` is torch's loss scaling, for a loss whose gradients could
underflow (float16's): it multiplies the loss by a scale, divides the gradients by it before the step,
skips a step whose gradients hold an inf or NaN and halves the scale then, and doubles it
after `growth_interval` clean steps. With bfloat16 or float32 gradients it changes nothing but
the rounding of a power-of-two scale (none); `enabled=False` makes every method a pass-through,
as torch's."""
import math

from ._autocast import autocast

__all__ = ["autocast", "GradScaler"]


class GradScaler:
    """torch.amp.GradScaler: dynamic loss scaling with torch's defaults and state_dict."""

    def __init__(self, device="cpu", init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        if not growth_factor > 1.0:
            raise ValueError("The growth factor must be > 1.0.")
        if not backoff_factor < 1.0:
            raise ValueError("The backoff factor must be < 1.0.")
        self._device = device
        self._enabled = bool(enabled)
        self._scale = float(init_scale)
        self._growth_factor = float(growth_factor)
        self._backoff_factor = float(backoff_factor)
        self._growth_interval = int(growth_interval)
        self._growth_tracker = 0
        self._per_optimizer = {}  # id(optimizer) -> {"unscaled": bool, "found_inf": bool, "stepped": bool}

    def is_enabled(self):
        return self._enabled

    def get_scale(self):
        return self._scale if self._enabled else 1.0

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = float(new_factor)

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = float(new_factor)

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = int(new_interval)

    def scale(self, outputs):
        """`outputs` (a tensor, or lists, tuples and dicts of them) times the scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        if isinstance(outputs, dict):
            return {k: self.scale(v) for k, v in outputs.items()}
        return outputs * self._scale

    def _state(self, optimizer):
        return self._per_optimizer.setdefault(id(optimizer), {"unscaled": False, "found_inf": False, "stepped": False})

    def unscale_(self, optimizer):
        """Divides the optimizer's gradients by the scale, in place, and notes whether any is
        inf or NaN (one read of the device for them all)."""
        if not self._enabled:
            return
        state = self._state(optimizer)
        if state["unscaled"]:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["stepped"]:
            raise RuntimeError("unscale_() is being called after step().")
        inv = 1.0 / self._scale
        finite = None
        for group in optimizer.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.grad.mul_(inv)
                ok = p.grad.isfinite().all()
                finite = ok if finite is None else finite & ok
        state["found_inf"] = finite is not None and not bool(finite.item())
        state["unscaled"] = True

    def step(self, optimizer, *args, **kwargs):
        """optimizer.step(*args, **kwargs) unless a gradient is inf or NaN (unscaling first if
        the caller did not); returns what step returned, or None when skipped."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        state = self._state(optimizer)
        if state["stepped"]:
            raise RuntimeError("step() has already been called since the last update().")
        if not state["unscaled"]:
            self.unscale_(optimizer)
        state["stepped"] = True
        if state["found_inf"]:
            return None
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        """Backs the scale off after a step that found an inf or NaN, grows it after
        growth_interval clean ones; or sets `new_scale` (a number or a one-element tensor)."""
        if not self._enabled:
            return
        if new_scale is not None:
            self._scale = float(new_scale.item() if hasattr(new_scale, "item") else new_scale)
        elif self._per_optimizer:
            if any(s["found_inf"] for s in self._per_optimizer.values()):
                self._scale *= self._backoff_factor
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    grown = self._scale * self._growth_factor
                    if math.isfinite(grown):
                        self._scale = grown
                    self._growth_tracker = 0
        else:
            raise AssertionError("No inf checks were recorded prior to update.")
        self._per_optimizer = {}

    def state_dict(self):
        if not self._enabled:
            return {}
        return {"scale": self._scale, "growth_factor": self._growth_factor, "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval, "_growth_tracker": self._growth_tracker}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved from a disabled instance "
                               "of GradScaler.")
        self._scale = float(state_dict["scale"])
        self._growth_factor = float(state_dict["growth_factor"])
        self._backoff_factor = float(state_dict["backoff_factor"])
        self._growth_interval = int(state_dict["growth_interval"])
        self._growth_tracker = int(state_dict["_growth_tracker"])
