"""Whole programs as PyTorch users write them (issue 37, twenty-second programs round), focused on
model code as Hugging Face, timm and lucidrains write it and on training-loop machinery: BERT
(extended 4-d masks with finfo.min, token types, pooler, tied MLM head), LLaMA (RMSNorm, rotary
embeddings by rotate_half and by view_as_complex/polar, SwiGLU, repeat_kv, KV caches, greedy,
top-k and top-p filtering), T5 relative position buckets, MoE routing and load-balancing
losses, DDPM / DDIM schedules, timestep embeddings and sampling loops, GroupNorm+SiLU U-Net
blocks, message-passing GNNs by index_add_ / scatter_reduce, box IoU and NMS, spatial
transformers (affine_grid, grid_sample), F.interpolate in every mode, pixel_shuffle, fold /
unfold, CTC, focal and distillation losses, label smoothing, metrics by bincount / sort /
cumsum, torch.fft, stft / istft, windows, complex tensors; clip_grad_norm_, parameters_to_vector,
AveragedModel / SWALR / update_bn, LambdaLR / SequentialLR / ChainedScheduler /
ReduceLROnPlateau state_dicts, grad modes, train / eval, torch.utils.data and checkpoints.
Each program in port_programs22/ is torch's spelling, run unchanged but for its imports, and
must agree with what PyTorch 2 printed for it (expected.json), as test_port_programs9's."""
import os

from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs22"), "z")
