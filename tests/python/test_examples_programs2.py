"""Real programs (issue 37), the second round: widely copied code beyond pytorch/examples
(karpathy's nanoGPT, minGPT, makemore and ng-video-lecture, yunjey's pytorch-tutorial,
lucidrains' vit-pytorch and denoising-diffusion-pytorch, bentrevett's pytorch-seq2seq), each
examples_programs/f*.py a runnable copy changed only as test_examples_programs.py's docstring
says (its first lines name the source, the licence and what changed). torch's values are in
examples_programs/expected2.json; `python3 test_examples_programs2.py --torch|--compare [NAME...]`
regenerates or compares them as test_examples_programs.py's command line does."""
import os

from test_examples_programs import EXPECTED_PATH, main, program_tests, restore_settings, runs_of  # noqa: F401

RUNS = runs_of("f")
EXPECTED2_PATH = os.path.join(os.path.dirname(EXPECTED_PATH), "expected2.json")

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(RUNS, EXPECTED2_PATH)

if __name__ == "__main__":
    main(RUNS, EXPECTED2_PATH)
