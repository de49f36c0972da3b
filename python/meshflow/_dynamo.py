"""torch._dynamo's names that training scripts set or call around torch.compile
(`torch._dynamo.config.optimize_ddp = False`, `suppress_errors`, `cache_size_limit`,
`reset()`): the settings are recorded and read back, changing nothing, since meshflow runs
compiled modules eagerly (meshflow.compiler); `eval_frame.OptimizedModule` is the class of
what compile(module) returns, for Hugging Face's `is_compiled_module` check.

Thread-safety: config is a plain namespace; set it before training, as torch's."""
import types as _types

from ._ops_port import OptimizedModule
from .compiler import allow_in_graph, disable, is_compiling, reset  # noqa: F401

__all__ = ["config", "eval_frame", "reset", "is_compiling", "disable", "allow_in_graph", "mark_dynamic",
           "mark_static", "OptimizedModule"]

config = _types.SimpleNamespace(cache_size_limit=8, accumulated_cache_size_limit=256, suppress_errors=False,
                                optimize_ddp=True, capture_scalar_outputs=False,
                                capture_dynamic_output_shape_ops=False, automatic_dynamic_shapes=True,
                                verbose=False)
eval_frame = _types.SimpleNamespace(OptimizedModule=OptimizedModule)


def mark_dynamic(t, index, min=None, max=None):
    """torch's hint that a dim's size varies between calls; eager code takes any size."""


def mark_static(t, index=None):
    """torch's hint that a dim's size is fixed; nothing to do eagerly."""
