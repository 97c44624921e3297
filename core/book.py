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

# Figure 05 and section 3.6: what PyTorch 2.13 prints for the book's classes after
# torch.manual_seed(123) on batch = torch.stack((inputs, inputs)), dropout 0.0 (first batch item;
# the second prints the same). Exercise 3.2 is the wrapper with d_out = 1. Shapes and GPT-2's
# head_dim / divisor are the post's; the parameter count is the book's (GPT_CONFIG_124M).
FIGURE_05 = {
    "causal_attention": (
        "[-0.4519, 0.2216]",
        "[-0.5874, 0.0058]",
        "[-0.6300, -0.0632]",
        "[-0.5675, -0.0843]",
        "[-0.5526, -0.0981]",
        "[-0.5299, -0.1081]",
    ),
    "wrapper": (
        "[-0.4519, 0.2216, 0.4772, 0.1063]",
        "[-0.5874, 0.0058, 0.5891, 0.3257]",
        "[-0.6300, -0.0632, 0.6202, 0.3860]",
        "[-0.5675, -0.0843, 0.5478, 0.3589]",
        "[-0.5526, -0.0981, 0.5321, 0.3428]",
        "[-0.5299, -0.1081, 0.5077, 0.3493]",
    ),
    "wrapper_shape": "[2, 6, 4]",
    "exercise_3_2": (
        "[-0.5740, 0.2216]",
        "[-0.7320, 0.0155]",
        "[-0.7774, -0.0546]",
        "[-0.6979, -0.0817]",
        "[-0.6538, -0.0957]",
        "[-0.6424, -0.1065]",
    ),
    "exercise_3_2_shape": "[2, 6, 2]",
    "split": (
        "[0.3190, 0.4858]",
        "[0.2943, 0.3897]",
        "[0.2856, 0.3593]",
        "[0.2693, 0.3873]",
        "[0.2639, 0.3928]",
        "[0.2575, 0.4028]",
    ),
    "split_shape": "[2, 6, 2]",
    "gpt2_head_dim": "64",
    "gpt2_divisor": "8",
    "gpt2_divisor_not": "27.7",
    "gpt2_attention_params": "2,360,064",
    "four_lines": (
        "keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)\n"
        "keys = keys.transpose(1, 2)\n"
        "context_vec = (attn_weights @ values).transpose(1, 2)\n"
        "context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)"
    ),
}
