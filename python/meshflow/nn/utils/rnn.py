"""meshflow.nn.utils.rnn: torch.nn.utils.rnn's pad_sequence (packed sequences are not
provided)."""
from ..._ops_creation import full
from ..._ops_shape import cat, stack
from ..._tensor import Tensor, _in_layout_of

__all__ = ["pad_sequence"]


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """The tensors in `sequences` ([L_i, *] each, the same * and dtype) stacked into one of
    [max L_i, B, *] (batch_first: [B, max L_i, *]), each padded with padding_value after its
    elements (padding_side="right") or before them ("left"). Gradients reach the inputs."""
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    if isinstance(sequences, Tensor):
        sequences = sequences.unbind(0)
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if any(s.ndim == 0 for s in sequences):
        raise RuntimeError("pad_sequence: expected every sequence to have at least 1 dim (a length), got a scalar")
    trailing = tuple(sequences[0].shape[1:])
    for s in sequences:
        if tuple(s.shape[1:]) != trailing:
            raise RuntimeError(f"pad_sequence: the sequences' trailing dims differ: {trailing} and "
                               f"{tuple(s.shape[1:])}; expected the same")
    longest = max(s.shape[0] for s in sequences)
    padded = []
    for s in sequences:
        missing = longest - s.shape[0]
        if missing:
            pad = _in_layout_of(full((missing,) + trailing, padding_value, dtype=s.dtype), s) if s.is_global \
                else full((missing,) + trailing, padding_value, dtype=s.dtype, device=s.device)
            s = cat([s, pad] if padding_side == "right" else [pad, s], 0)
        padded.append(s)
    return stack(padded, 0 if batch_first else 1)
