"""What ``tests.e2e.browser.rerun_fragment`` reads from a frame the page sends: the fragment a rerun
asks for, ``""`` for a full rerun, nothing for other messages. The per-page browser visit relies on
it to tell a fragment's rerun from the page's (issue 25)."""

from __future__ import annotations

from streamlit.proto.BackMsg_pb2 import BackMsg

from tests.e2e.browser import rerun_fragment


def test_a_fragment_rerun_names_its_fragment_and_a_full_rerun_names_none():
    fragment, full, beat = BackMsg(), BackMsg(), BackMsg()
    fragment.rerun_script.fragment_id = "f00d"
    fragment.rerun_script.query_string = "mask_focus=journey"
    full.rerun_script.query_string = "mask_focus=journey"
    beat.app_heartbeat = True
    assert rerun_fragment(fragment.SerializeToString()) == "f00d"
    assert rerun_fragment(full.SerializeToString()) == ""
    assert rerun_fragment(beat.SerializeToString()) is None
    assert rerun_fragment("a text frame") is None
