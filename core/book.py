"""What the book and the post print, as quoted text: the "quoted" side of every check.

These strings are copied from PyTorch's printout of the book's code (chapter 3) and from the
post in ``shared/seed``. Nothing in the app computes with them: each page computes the live
value with ``core`` and ``ui.checks`` compares the two texts digit for digit.
"""

from __future__ import annotations

# The post, "Three matrices, and a triangle of minus infinity", recap and figure 01.
RECAP = {
    "context_journey": "[0.4419, 0.6515, 0.5683]",
    "spread_inputs": "0.6576",
    "spread_outputs": "0.0482",
    "spread_ratio": "7.3%",
    "nearest": "starts, all six",
    "affinity_journey_starts": "1.4754",
}
FIGURE_01 = {
    "score_error_none": "0.0000",
    "score_error_tied": "0.0000",
    "row_sums": "[4.4600, 6.5617, 6.4801, 3.6459, 3.1863, 4.6730]",
    "weight_error_none": "0.0634",
    "journey_to_starts": "0.2134",
    "starts_to_journey": "0.2157",
}

# Section 3.4, SelfAttention_v1 after torch.manual_seed(123), on the book's inputs.
SECTION_3_4 = {
    "query_2": "[0.4306, 1.4551]",
    "omega_22": "1.8524",
    "attn_weights_2": "[0.1500, 0.2264, 0.2199, 0.1311, 0.0906, 0.1820]",
    "context_vec_2": "[0.3061, 0.8210]",
    "sa_v1_output": (
        "[0.2996, 0.8053]",
        "[0.3061, 0.8210]",
        "[0.3058, 0.8203]",
        "[0.2948, 0.7939]",
        "[0.2927, 0.7891]",
        "[0.2990, 0.8040]",
    ),
}
# Section 3.4.2, SelfAttention_v2 after torch.manual_seed(789) (sa_v2), on the book's inputs.
SECTION_3_5 = {
    "sa_v2_output": (
        "[-0.0739, 0.0713]",
        "[-0.0748, 0.0703]",
        "[-0.0749, 0.0702]",
        "[-0.0760, 0.0685]",
        "[-0.0763, 0.0679]",
        "[-0.0754, 0.0693]",
    ),
}

# The post, section 02 "Divide by 1.4142": a Monte Carlo study over "hundreds" of draws of one
# query and six keys, so every number is statistical (the app reproduces the distribution).
FIGURE_02 = {
    "std_64": "7.890",
    "std_4096": "63.5",
    "median_raw_2": "0.220",
    "median_raw_64": "0.022",
    "median_raw_768": "3.1e-6",
    "median_raw_4096": "4.8e-14",
    "median_scaled": "0.23",
    "live_share_raw_768": "about a third",
    "mean_raw_2": "0.208",
    "mean_raw_4096": "0.0063",
}
