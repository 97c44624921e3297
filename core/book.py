"""What the book and the post print, as quoted text: the "quoted" side of every check.

These strings are copied from PyTorch's printout of the book's code (chapter 3) and from the
post in ``shared/seed``. Nothing in the app computes with them: each page computes the live
value with ``core`` and ``ui.checks`` compares the two texts digit for digit.
"""

from __future__ import annotations

from typing import TypedDict

# One TypedDict per source below, so each quote has its own type (a text, or rows of text).


class RecapQuotes(TypedDict):
    context_journey: str
    spread_inputs: str
    spread_outputs: str
    spread_ratio: str
    nearest: str
    affinity_journey_starts: str


class Figure01Quotes(TypedDict):
    score_error_none: str
    score_error_tied: str
    row_sums: str
    weight_error_none: str
    journey_to_starts: str
    starts_to_journey: str
    five_ops: str


class ComputedQuotes(TypedDict):
    denominators_none: str
    flop_growth_gpt41: str
    crossover_gpt2: str


class Section33Quotes(TypedDict):
    attn_weights_2: str


class Section34Quotes(TypedDict):
    query_2: str
    omega_22: str
    attn_weights_2: str
    context_vec_2: str
    sa_v1_output: tuple[str, ...]


class Section35Quotes(TypedDict):
    sa_v2_output: tuple[str, ...]


class Figure03Quotes(TypedDict):
    softmax_counterexample: str
    naive_first_entry: str
    efficient_first_entry: str
    masked_rows: tuple[str, ...]
    max_difference: str
    zero_fill_future: str


class Section351Quotes(TypedDict):
    attn_weights: tuple[str, ...]
    masked_simple: tuple[str, ...]
    masked_scores: tuple[str, ...]
    masked_weights: tuple[str, ...]
    causal_attention_output: tuple[str, ...]


class Figure06Quotes(TypedDict):
    bytes_1024: str
    bytes_gpt41: str
    size_gpt41: str
    cards_ratio: str
    cards_ceiling: str
    cards_giles: str
    seconds_exact: str
    hours_exact: str
    hours_giles: str
    mask_discards: str


class Figure07Quotes(TypedDict):
    attention_params: str
    feed_forward_params: str
    no_computation: str
    kv_cache_reason: str


class Figure04Quotes(TypedDict):
    book_attn_weights: tuple[str, ...]
    book_dropped: tuple[str, ...]
    row1_zero_rate: str
    row2_zero_rate: str
    mean_row_sum_scaled: str
    mean_row_sum_unscaled: str
    gpt_rates: str
    worked_factor: str


class Figure05Quotes(TypedDict):
    causal_attention: tuple[str, ...]
    wrapper: tuple[str, ...]
    wrapper_shape: str
    exercise_3_2: tuple[str, ...]
    exercise_3_2_shape: str
    split: tuple[str, ...]
    split_shape: str
    gpt2_head_dim: str
    gpt2_divisor: str
    gpt2_divisor_not: str
    gpt2_attention_params: str
    four_lines: str


# The post, "Three matrices, and a triangle of minus infinity", recap and figure 01.
RECAP: RecapQuotes = {
    "context_journey": "[0.4419, 0.6515, 0.5683]",
    "spread_inputs": "0.6576",
    "spread_outputs": "0.0482",
    "spread_ratio": "7.3%",
    "nearest": "starts, all six",
    "affinity_journey_starts": "1.4754",
}
FIGURE_01: Figure01Quotes = {
    "score_error_none": "0.0000",
    "score_error_tied": "0.0000",
    "row_sums": "[4.4600, 6.5617, 6.4801, 3.6459, 3.1863, 4.6730]",
    "weight_error_none": "0.0634",
    "journey_to_starts": "0.2134",
    "starts_to_journey": "0.2157",
    # "five matrix multiplications and a transpose, for every token at once" (Giles Thomas's count)
    "five_ops": "five matrix multiplications and a transpose",
}
# Values computed here another way (the book's code run in PyTorch 2.13, or exact integer
# arithmetic): true values where the post is loose, kept as text, never used to compute anything.
COMPUTED: ComputedQuotes = {
    # softmax's row denominators Σ_j exp(ω_ij/√2) with no matrices: what the weight error comes from
    "denominators_none": "[10.28, 13.30, 13.16, 9.30, 8.80, 10.61]",
    "flop_growth_gpt41": "×493,048",  # one head's multiply-adds, 1,024 -> 1,047,576 tokens (768, 64)
    "crossover_gpt2": "1,153",  # the n from which QKᵀ + AV outweigh the projections (d_in 768)
}

# Section 3.3.1, attention without weights: torch.softmax(attn_scores_2, dim=0), the weights of the
# query "journey" (x^(2)) over the six inputs, as the book prints them (no divisor).
SECTION_3_3: Section33Quotes = {
    "attn_weights_2": "[0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581]",
}
# Section 3.4, SelfAttention_v1 after torch.manual_seed(123), on the book's inputs.
SECTION_3_4: Section34Quotes = {
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
SECTION_3_5: Section35Quotes = {
    "sa_v2_output": (
        "[-0.0739, 0.0713]",
        "[-0.0748, 0.0703]",
        "[-0.0749, 0.0702]",
        "[-0.0760, 0.0685]",
        "[-0.0763, 0.0679]",
        "[-0.0754, 0.0693]",
    ),
}

# Figure 03, masking the future: the post's quotes (section 03) and what PyTorch 2.13 prints
# for the book's section 3.5.1 code on sa_v2 (seed 789) and section 3.5.3's CausalAttention
# (seed 123, dropout 0.0) on ``batch``.
FIGURE_03: Figure03Quotes = {
    "softmax_counterexample": "[0.0844, 0.2295, 0.6239, 0.0311, 0.0311]",
    "naive_first_entry": "0.1921",  # post-softmax weight, where the naive path masks
    "efficient_first_entry": "0.2899",  # pre-scale score, where the efficient path masks
    "masked_rows": ("1.0000", "[0.5517, 0.4483]", "[0.3800, 0.3097, 0.3103]"),
    "max_difference": "5.6e-17",  # the post's run, one machine's rounding: the check asks "below 1e-15"
    "zero_fill_future": "0.8029",
}
SECTION_3_5_1: Section351Quotes = {
    # print(attn_weights): softmax(attn_scores / keys.shape[-1]**0.5), before any mask
    "attn_weights": (
        "[0.1921, 0.1646, 0.1652, 0.1550, 0.1721, 0.1510]",
        "[0.2041, 0.1659, 0.1662, 0.1496, 0.1665, 0.1477]",
        "[0.2036, 0.1659, 0.1662, 0.1498, 0.1664, 0.1480]",
        "[0.1869, 0.1667, 0.1668, 0.1571, 0.1661, 0.1564]",
        "[0.1830, 0.1669, 0.1670, 0.1588, 0.1658, 0.1585]",
        "[0.1935, 0.1663, 0.1666, 0.1542, 0.1666, 0.1529]",
    ),
    # print(masked_simple): attn_weights * torch.tril(torch.ones(6, 6))
    "masked_simple": (
        "[0.1921, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000]",
        "[0.2041, 0.1659, 0.0000, 0.0000, 0.0000, 0.0000]",
        "[0.2036, 0.1659, 0.1662, 0.0000, 0.0000, 0.0000]",
        "[0.1869, 0.1667, 0.1668, 0.1571, 0.0000, 0.0000]",
        "[0.1830, 0.1669, 0.1670, 0.1588, 0.1658, 0.0000]",
        "[0.1935, 0.1663, 0.1666, 0.1542, 0.1666, 0.1529]",
    ),
    # print(masked): attn_scores.masked_fill(mask.bool(), -torch.inf)
    "masked_scores": (
        "[0.2899, -inf, -inf, -inf, -inf, -inf]",
        "[0.4656, 0.1723, -inf, -inf, -inf, -inf]",
        "[0.4594, 0.1703, 0.1731, -inf, -inf, -inf]",
        "[0.2642, 0.1024, 0.1036, 0.0186, -inf, -inf]",
        "[0.2183, 0.0874, 0.0882, 0.0177, 0.0786, -inf]",
        "[0.3408, 0.1270, 0.1290, 0.0198, 0.1290, 0.0078]",
    ),
    # print(masked_simple_norm) and print(attn_weights) after the -inf fill: the same tensor
    "masked_weights": (
        "[1.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000]",
        "[0.5517, 0.4483, 0.0000, 0.0000, 0.0000, 0.0000]",
        "[0.3800, 0.3097, 0.3103, 0.0000, 0.0000, 0.0000]",
        "[0.2758, 0.2460, 0.2462, 0.2319, 0.0000, 0.0000]",
        "[0.2175, 0.1983, 0.1984, 0.1888, 0.1971, 0.0000]",
        "[0.1935, 0.1663, 0.1666, 0.1542, 0.1666, 0.1529]",
    ),
    # print(context_vecs) for CausalAttention(3, 2, 6, 0.0) after torch.manual_seed(123): batch[0]
    "causal_attention_output": (
        "[-0.4519, 0.2216]",
        "[-0.5874, 0.0058]",
        "[-0.6300, -0.0632]",
        "[-0.5675, -0.0843]",
        "[-0.5526, -0.0981]",
        "[-0.5299, -0.1081]",
    ),
}

# The post, figure 06 ("What n² costs"), following Giles Thomas: one head, one layer, 2 bytes a score.
FIGURE_06: Figure06Quotes = {
    "bytes_1024": "2 MiB",
    "bytes_gpt41": "2,194,830,951,552 bytes",
    "size_gpt41": "≈2 TiB",
    "cards_ratio": "25.55",
    "cards_ceiling": "26",
    "cards_giles": "25",  # "Giles Thomas writes that as 25 H100 cards at 80 GiB each"
    "seconds_exact": "104,658 s",
    "hours_exact": "29.07 h",
    "hours_giles": "≈28 h",  # his figure: the length ratio rounded to a clean thousand
    "mask_discards": "just under half the cells",
}

# The post, figure 07 ("What comes next"): the book's printed parameter counts of one GPT-2 small
# block (chapter 4, GPT_CONFIG_124M with qkv_bias=False).
FIGURE_07: Figure07Quotes = {
    "attention_params": "2,360,064",
    "feed_forward_params": "4,722,432",
    # "Attention moves information between positions and does no per-position computation at all."
    "no_computation": "no per-position computation at all",
    # "A KV cache, absent from the book by the author's own statement, because it increases memory
    # requirements."
    "kv_cache_reason": "because it increases memory requirements",
}
# The book's own KV-cache material (rasbt/LLMs-from-scratch, ch04/03_kv-cache/README.md, "Overview"):
# three costs, not memory alone.
BOOK_KV_CACHE = (
    "The downside is that it adds some complexity to the code, increases memory usage, "
    "and can't be used during training."
)

# Figure 04 (dropout). "book_*": PyTorch 2.13's printout of the book's section 3.5 code, run here:
# torch.manual_seed(789); sa_v2 = SelfAttention_v2(3, 2); causal weights as in 3.5.1 (masked_fill
# with -inf, / keys.shape[-1]**0.5, softmax); torch.manual_seed(123); print(nn.Dropout(0.5)(attn_weights)).
# The rest is the post's figure 04 (statistical: one run of the post's own draws).
FIGURE_04: Figure04Quotes = {
    "book_attn_weights": SECTION_3_5_1["masked_weights"],  # the same print(attn_weights) as 3.5.1's
    "book_dropped": (
        "[2.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000]",
        "[0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000]",
        "[0.7599, 0.6194, 0.6206, 0.0000, 0.0000, 0.0000]",
        "[0.0000, 0.4921, 0.4925, 0.0000, 0.0000, 0.0000]",
        "[0.0000, 0.3966, 0.0000, 0.3775, 0.0000, 0.0000]",
        "[0.0000, 0.3327, 0.3331, 0.3084, 0.3331, 0.0000]",
    ),
    "row1_zero_rate": "49.5%",  # "Over 20,000 draws here it happens 49.5% of the time", p = 0.5
    "row2_zero_rate": "≈25%",  # "row 2 ... dies on a quarter of them"
    # "with scaling on, the mean row sum over ten thousand draws walks to 0.998"
    "mean_row_sum_scaled": "0.998",
    "mean_row_sum_unscaled": "0.499",  # "with it off, to 0.499"
    "gpt_rates": "0.1 or 0.2",  # "A real GPT run uses a lower rate than the demo, 0.1 or 0.2."
    "worked_factor": "1/0.5 = 2",  # "the survivors multiplied by 1/0.5 = 2" at a rate of 0.5
}

# Figure 05 and section 3.6: what PyTorch 2.13 prints for the book's classes after
# torch.manual_seed(123) on batch = torch.stack((inputs, inputs)), dropout 0.0 (first batch item;
# the second prints the same). Exercise 3.2 is the wrapper with d_out = 1. Shapes and GPT-2's
# head_dim / divisor are the post's; the parameter count is the book's (GPT_CONFIG_124M).
FIGURE_05: Figure05Quotes = {
    "causal_attention": SECTION_3_5_1["causal_attention_output"],  # the same printout
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

# The official solution of exercise 3.2 as its notebook prints it (rasbt/LLMs-from-scratch,
# ch03/01_main-chapter-code/exercise-solutions.ipynb, first batch item). Stale: printed with the
# notebook's softmax(dim=1); the chapter's code switched to dim=-1 in commit d4754f1 (March 2024).
EXERCISE_3_2_SOLUTION = (
    "[-9.1476e-02, 3.4164e-02]",
    "[-2.6796e-01, -1.3427e-03]",
    "[-4.8421e-01, -4.8909e-02]",
    "[-6.4808e-01, -1.0625e-01]",
    "[-8.8380e-01, -1.7140e-01]",
    "[-1.4744e+00, -3.4327e-01]",
)
