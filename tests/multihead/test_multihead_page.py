"""The Multi-head page running (AppTest): it shows its view, its presets write the widgets, links bind
every key, messages stand in for what cannot be drawn, the stopwatch and the Reproduce expander.

The numbers themselves are the view's (``test_multihead_view.py``); here the page must show them.
"""

import base64
import dataclasses
import functools
import itertools
import json

import numpy as np
import pytest

from tests.app.conftest import all_match, assert_clean, charts, metrics, open_page, widget
from tests.app.test_reproduce_expander import open_with_script, script_shown
from topics.multihead import script, speed, stopwatch, study, view
from ui import cache

PAGE = "topics/multihead/page.py"
KEYS = ("preset", "kind", "heads", "d_in", "d_out", "mh_seed")


def _checks_label(at) -> str:
    (exp,) = [e for e in at.expander if e.label.startswith("Checks against the sources")]
    return exp.label


def _charts(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in charts(at)]


def _size(v) -> int:
    """Entries in a Plotly array, plain or typed (``{"dtype", "bdata", "shape"}``)."""
    if isinstance(v, dict):
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).size
    return int(np.size(v))


def _warnings(at) -> str:
    return " ".join(w.value for w in at.warning)


def _text(at, kind: str) -> str:
    return " ".join(e.value for e in getattr(at, kind))


def _readouts(v: view.View, kind: str) -> dict[str, str]:
    """The six metrics as the page must print the view's fields."""
    return {
        "head_dim" if kind == "split" else "Head width = d_out": "—"
        if v.head_width is None
        else str(v.head_width),
        "Divisor √keys.shape[-1]": "—" if v.divisor is None else view.root_text(v.divisor),
        "Output, wrapper": view.shape(v.output_wrapper),
        "Output, split": view.shape(v.output_split),
        "Projection matmuls": str(v.projection_matmuls),
        "Parameters": "—" if v.params is None else f"{v.params:,}",
    }


@pytest.fixture(scope="module")
def default():
    return open_page(PAGE)


def test_the_default_page_shows_its_view(default):
    at, v = default, view.build(view.Settings())
    assert_clean(at)
    assert metrics(at) == _readouts(v, "split")
    assert "Each head is 1 wide" in _warnings(at)
    assert all_match(_checks_label(at), 39)
    assert len(_charts(at)) == 4  # W_q stripes, one heatmap per head (two), output
    assert at.dataframe[0].value.equals(v.trace)
    assert at.dataframe[1].value.equals(v.comparison)
    assert at.dataframe[2].value.equals(v.exercise)
    captions, markdown = _text(at, "caption"), _text(at, "markdown")
    assert v.caption in captions and v.gpt3_note in captions
    assert v.measure_intro in markdown
    assert "`[-0.5740, 0.2216]`" in markdown and "d4754f1" in markdown and "never regenerated" in markdown
    assert f"multiplications carry them, {v.wrapper_matmuls} against 3 here" in markdown


def test_the_gpt2_preset_writes_the_widgets_and_a_changed_value_makes_it_custom():
    at = open_page(PAGE)
    widget(at, "preset").set_value("GPT-2 small").run()
    assert_clean(at)
    assert (widget(at, "d_in").value, widget(at, "d_out").value, widget(at, "heads").value) == (768, 768, 12)
    assert widget(at, "kind").value == "split"
    v = view.build(view.Settings(preset="GPT-2 small", d_in=768, d_out=768, heads=12))
    assert metrics(at) == _readouts(v, "split")
    assert "not by √d_out = √768 = 27.7" in _text(at, "caption")
    assert "Thinned for the screen" in _text(at, "caption")
    assert "Each head is 1 wide" not in _warnings(at)
    wq = _charts(at)[0]  # W_q is 768×768: drawn thinned, 12 stripes, never 589,824 cells
    assert len(wq["data"]) == 12
    assert sum(_size(t["z"]) for t in wq["data"]) <= 96 * 96
    widget(at, "heads").set_value(8).run()
    assert_clean(at)
    assert widget(at, "preset").value == "Custom"
    assert metrics(at)["head_dim"] == "96"
    widget(at, "preset").set_value("Book toy").run()
    assert (widget(at, "d_in").value, widget(at, "d_out").value, widget(at, "heads").value) == (3, 2, 2)
    assert metrics(at)["Output, split"] == "[2, 6, 2]"


def test_the_exercise_3_2_preset_is_the_wrapper_two_wide():
    at = open_page(PAGE)
    widget(at, "preset").set_value("Exercise 3.2").run()
    assert_clean(at)
    assert widget(at, "kind").value == "wrapper"
    v = view.build(view.Settings(preset="Exercise 3.2", kind="wrapper", d_out=1))
    assert metrics(at) == _readouts(v, "wrapper")


def test_a_link_naming_only_a_preset_applies_it():
    at = open_page(PAGE, {"preset": "GPT-2 small"})
    assert_clean(at)
    assert widget(at, "preset").value == "GPT-2 small"
    assert metrics(at)["Divisor √keys.shape[-1]"] == "8"


@pytest.mark.parametrize(
    ("key", "value", "change"),
    [
        ("kind", "wrapper", {"kind": "wrapper"}),
        ("heads", 4, {"heads": 4}),
        ("d_out", 8, {"d_out": 8}),
        ("d_in", 5, {"d_in": 5}),
        ("mh_seed", 7, {"seed": 7}),
    ],
)
def test_every_control_moves_the_page_to_its_view(default, key, value, change):
    at = open_page(PAGE)
    widget(at, key).set_value(value).run()
    assert_clean(at)
    s = dataclasses.replace(view.Settings(), preset="Custom", **change)
    v = view.build(s)
    assert metrics(at) == _readouts(v, s.kind)
    assert v.caption in _text(at, "caption")
    assert (metrics(at), _charts(at)) != (metrics(default), _charts(default))


def test_a_width_the_split_class_cannot_cut_shows_the_message_inline():
    at = open_page(PAGE)
    widget(at, "d_out").set_value(3).run()
    assert_clean(at)
    text = _warnings(at)
    assert "d_out = 3 is not divisible by num_heads = 2" in text and "multiple of 2" in text
    assert not _charts(at)  # nothing drawn for a class that cannot be built
    widget(at, "kind").set_value("wrapper").run()
    assert_clean(at)
    assert "not divisible" not in _warnings(at)
    assert len(_charts(at)) == 4  # W_q stripes, two heads, output


def test_a_huge_wrapper_is_counted_not_drawn():
    at = open_page(PAGE, {"kind": "Wrapper", "d_in": "768", "d_out": "768", "heads": "12"})
    assert_clean(at)
    assert "21,233,664 parameters" in _text(at, "info")
    assert metrics(at)["Output, wrapper"] == "[2, 6, 9216]"
    assert not _charts(at)


def test_a_url_with_every_bound_key_renders_that_view():
    values = ("Custom", "Wrapper", "3", "4", "5", "9")
    query: dict[str, str | list[str]] = dict(zip(KEYS, values, strict=True))
    at = open_page(PAGE, query)
    assert_clean(at)
    assert [widget(at, k).value for k in KEYS] == ["Custom", "wrapper", 3, 4, 5, 9]
    v = view.build(view.Settings(preset="Custom", kind="wrapper", heads=3, d_in=4, d_out=5, seed=9))
    assert metrics(at) == _readouts(v, "wrapper")


GARBAGE = ["", "nan", "inf", "-inf", "-1", "1e999", "9" * 40, "'; DROP TABLE", "🙂" * 50, "x" * 10_000]


@pytest.mark.parametrize("junk", GARBAGE)
def test_garbage_in_every_key_renders_the_default_view(default, junk):
    query: dict[str, str | list[str]] = {k: junk for k in KEYS}
    at = open_page(PAGE, query)
    assert_clean(at)
    assert metrics(at) == metrics(default)
    assert all_match(_checks_label(at), 39)


def _tiny_stopwatch(monkeypatch) -> None:
    """A tiny grid and budget keep a test fast; the page reads both from the stopwatch at run time.
    No wall-clock timing in a test: the stopwatch reads a clock that moves 0.1 to 0.11 ms a read
    (seeded), so the budget bounds the calls exactly whatever else the machine runs. One reuse
    window for the whole test, so a second press is always shown the first's timings."""
    monkeypatch.setattr(speed, "PAGE_NS", (16, 32))
    monkeypatch.setattr(speed, "PAGE_HEADS", (1, 2, 4))
    monkeypatch.setattr(speed, "PAGE_D", 16)
    monkeypatch.setattr(speed, "PAGE_BUDGET_S", 0.5)
    monkeypatch.setattr(speed, "PAGE_REUSE_S", 10**10)
    steps = np.random.default_rng(0)
    ticks = itertools.accumulate(1e-4 * (1 + 0.1 * steps.random()) for _ in itertools.count())
    timed = functools.partial(speed.measure_interleaved, clock=lambda: next(ticks))
    monkeypatch.setattr(speed, "measure_interleaved", timed)
    # The view's stopwatch intro quotes the grid, and a measurement is kept per window.
    cache.REGISTRY["topics.multihead.study.view_of"].func.clear()
    cache.REGISTRY["topics.multihead.study.measure"].func.clear()


def _captions(at) -> str:
    return " ".join(c.value for c in at.caption)


def test_measure_button_times_both_classes_within_its_budget_and_gives_a_verdict(monkeypatch):
    _tiny_stopwatch(monkeypatch)
    at = open_page(PAGE)
    assert "for **0.5 seconds** in all" in _text(at, "markdown")
    n_charts = len(_charts(at))
    at.button(key=stopwatch.KEY).click().run()
    assert_clean(at)
    charts = _charts(at)
    assert len(charts) == n_charts + 2  # whole forward, projections only
    speed_chart = charts[n_charts]
    assert {t["name"] for t in speed_chart["data"]} == {"n = 16", "n = 32"}
    assert all(len(t["y"]) == 3 and min(t["y"]) > 0 and "error_y" in t for t in speed_chart["data"])
    verdicts = [
        md.value for md in at.markdown if md.value.startswith(("At H = 4", "Cannot tell on this machine"))
    ]
    assert len(verdicts) == 2
    (times,) = [d.value for d in at.dataframe if "speed-up" in d.value.columns]
    assert len(times) == 2 * 2 * 3  # every cell, both modes
    assert "Measured on this server for your press" in _captions(at)
    # The result stays on screen when another control moves (kept, not re-measured).
    widget(at, "heads").set_value(1).run()
    assert_clean(at)
    assert len(_charts(at)) == n_charts - 1 + 2  # one head's heatmap fewer, both speed charts kept


def _count_measures(monkeypatch) -> list[int]:
    """A list that grows by one each time the stopwatch really measures (not served from the cache)."""
    calls: list[int] = []
    timed = speed.measure_interleaved

    def counted(*args, **kwargs):
        calls.append(1)
        return timed(*args, **kwargs)

    monkeypatch.setattr(speed, "measure_interleaved", counted)
    return calls


def test_a_second_reader_who_presses_measure_is_shown_the_first_readers_timings_and_told_so(monkeypatch):
    _tiny_stopwatch(monkeypatch)
    calls = _count_measures(monkeypatch)
    first, second = open_page(PAGE), open_page(PAGE)
    first.button(key=stopwatch.KEY).click().run()
    second.button(key=stopwatch.KEY).click().run()
    assert_clean(second)
    assert len(calls) == 1  # measured once, for the first press
    (mine,), (theirs,) = (
        [d.value for d in at.dataframe if "speed-up" in d.value.columns] for at in (first, second)
    )
    assert mine.equals(theirs)
    said = _captions(second)
    assert "for the first reader who asked" in said and "not measured again" in said
    assert "Measured on this server at " in said and " UTC" in said


def test_a_press_too_busy_to_tell_is_not_kept_for_the_next_reader(monkeypatch):
    _tiny_stopwatch(monkeypatch)
    monkeypatch.setattr(speed, "PAGE_BUDGET_S", 0.0)  # no round at all: no interval, no verdict
    calls = _count_measures(monkeypatch)
    for _ in range(2):
        at = open_page(PAGE)
        at.button(key=stopwatch.KEY).click().run()
        assert_clean(at)
        assert "not kept for other readers" in _captions(at)
    assert len(calls) == 2


def test_a_measurement_at_the_most_rounds_fits_its_cache_entry():
    """The cache test measures a real press, which finishes far fewer rounds than it may: here every
    cell of the page's grid holds the most rounds ``measure_interleaved`` times."""
    import pickle

    ratios = tuple(0.5 + np.random.default_rng(0).random(speed.MAX_ROUNDS))
    cells = speed.page_cells(speed.PAGE_NS, speed.PAGE_HEADS, speed.PAGE_D)
    full = study.Measurement(tuple(speed.Paired(c, m, ratios, 1e-3, 2e-3) for c, m in cells), 1e9, 4.0)
    assert len(pickle.dumps(full)) <= cache.REGISTRY["topics.multihead.study.measure"].bound.entry_bytes


def test_the_stopwatch_says_whose_timings_and_when():
    m = study.Measurement((), started=1_000_000.0, seconds=4.2)  # 13:46:40 UTC
    mine = stopwatch.provenance(stopwatch.Shown(m, asked=999_999.5))
    assert mine.startswith("Measured on this server for your press, at 13:46:40 UTC, in 4.2 s.")
    assert "before 13:50 UTC" in mine  # the window's end, PAGE_REUSE_S = 600
    busy = study.Measurement((speed.Paired(speed.Case(1, 8, 8, 1), "forward", (1.0,), 1e-3, 1e-3),), 1e6, 4.2)
    assert not busy.conclusive and m.conclusive
    assert "not kept for other readers" in stopwatch.provenance(stopwatch.Shown(busy, asked=999_999.5))
    theirs = stopwatch.provenance(stopwatch.Shown(m, asked=1_000_000.0 + 4.2 + 150))
    assert "at 13:46:40 UTC, 2 minutes before you pressed Measure" in theirs
    assert "not measured again" in theirs and "after 13:50 UTC" in theirs


def test_the_reproduce_expander_shows_the_script_for_the_view_on_screen():
    at = open_with_script(PAGE)
    assert_clean(at)
    expected = script.for_page(view.Settings())
    assert script_shown(at) == expected.code.rstrip("\n")  # st.code drops the final newline
    (button,) = [b for b in at.get("download_button") if b.key == "reproduce_multihead_download"]
    assert expected.filename in button.proto.label


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ({"kind": "Split", "d_out": "3", "heads": "2", "preset": "Custom"}, "not divisible"),
        (
            {"kind": "Wrapper", "d_in": "1024", "d_out": "1024", "heads": "16", "preset": "Custom"},
            "parameters",
        ),
    ],
)
def test_a_view_without_tensors_says_why_there_is_no_script(query, says):
    at = open_with_script(PAGE, query)
    assert_clean(at)
    assert script_shown(at) is None
    (box,) = [e for e in at.expander if e.label == "Reproduce in PyTorch"]
    assert any(says in i.value for i in box.info), [i.value for i in box.info]
