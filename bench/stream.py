"""One Streamlit session driven over its websocket, as Streamlit 1.67's own frontend drives it.

A load test that timed HTTP requests would miss what a learner waits for: in Streamlit every page
load and every control change is a message on one websocket (``/_stcore/stream``), answered by a
script run whose elements stream back until ``script_finished``. So this client speaks that
protocol with the messages Streamlit's package defines (``streamlit.proto``: ``BackMsg`` out,
``ForwardMsg`` in), in the order the frontend sends them:

- before the socket, the page's HTML, ``/_stcore/health`` and ``/_stcore/host-config`` over HTTP,
  keeping cookies (a load balancer's affinity cookie arrives with the HTML);
- a page load: ``rerun_script`` with the URL's path as ``page_name``, an empty
  ``page_script_hash`` and the query string; a page link: the link's ``page_script_hash`` and
  query string; a control change: the page on screen, the query string the server last wrote
  into the address bar (``page_info_changed``) and the widget states, with the ``fragment_id`` of
  the fragment the widget sits in (from the delta that drew it);
- the forward-message cache: a large element the client already holds is sent again as a
  ``ref_hash``, so each rerun reports the hashes it holds, as the browser does, forgetting a
  message no run has sent for ``maxCachedMessageAge`` runs (the server's setting).

Widget ids are read from the elements each run sent (``Element.<type>.id``), never computed: a
widget is found by the key the app gave it, which its id ends with. Every rerun sends the value
of every control on the page, as the frontend does: the one the learner gave it, or else the one
the last run drew (its ``value`` when the app set it, its ``default`` otherwise). Leaving an
untouched control out is not the same: a control whose id changed (its range did) would then get
the value the server carried over from its old id, which the frontend's fresh value overrides.
Buttons, charts and download buttons hold no value between runs; a button press is a trigger.
"""

from __future__ import annotations

import random
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from typing import Any

import websocket
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState, ContextInfo
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
MOVABLE = ("slider", "radio", "selectbox", "checkbox")  # controls a learner moves by one notch


class SessionError(RuntimeError):
    """A run that failed: an exception on the page, a compile error, a dropped connection."""


@dataclass
class Widget:
    """A widget as the last run drew it: its element type, its proto, the fragment it sits in."""

    kind: str
    proto: Any
    fragment_id: str

    @property
    def id(self) -> str:
        return str(self.proto.id)


@dataclass
class Run:
    """What one action got back: its wait, every element drawn, and the widgets by key."""

    seconds: float
    elements: list[tuple[str, Any]] = field(default_factory=list)  # (element type, proto), in order
    widgets: dict[str, Widget] = field(default_factory=dict)  # by the key the app gave each widget
    links: list[Any] = field(default_factory=list)  # PageLink protos
    exceptions: list[str] = field(default_factory=list)

    def text(self) -> list[str]:
        """Every sentence and number the run wrote (markdown, headings, captions, alerts, metrics)."""
        out = []
        for kind, el in self.elements:
            if kind in ("markdown", "heading", "alert", "text"):
                out.append(str(el.body))
            elif kind == "code":
                out.append(str(el.code_text))
            elif kind == "metric":
                out.append(f"{el.label}: {el.body}")
            elif kind == "progress":
                out.append(str(el.text))
        return out


def key_of(widget_id: str) -> str:
    """The key the app gave a widget, which Streamlit writes at the end of its id
    (``$$ID-<hash>-<key>``); a widget without a key is known by its whole id."""
    head, _, key = widget_id.rpartition("-")
    return key if head.startswith("$$ID") and key != "None" else widget_id


class Session:
    """A browser tab on ``base_url``: one websocket, one Streamlit session.

    ``timeout`` bounds each wait for a run to finish (a server that stops answering is an
    error, not a hang); ``color_scheme`` is what the tab's ``prefers-color-scheme`` would say
    (the app draws its figures for it, ``st.context.theme``).
    """

    def __init__(self, base_url: str, color_scheme: str = "light", timeout: float = 60) -> None:
        self.base_url = base_url.rstrip("/")
        self.color_scheme = color_scheme
        self.timeout = timeout
        self.cookies = CookieJar()
        self.http = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.ws: websocket.WebSocket | None = None
        self.page_script_hash = ""
        self.query_string = ""
        self.pages: dict[str, str] = {}  # url path -> page script hash, from the navigation message
        self.states: dict[str, WidgetState] = {}  # widget id -> what this learner set on the page
        self.on_page: dict[str, Widget] = {}  # widget id -> the widget as the page shows it
        self.cache: dict[str, ForwardMsg] = {}  # hash -> a cacheable message already received
        self.cache_age: dict[str, int] = {}  # hash -> the run that last sent or named it
        self.runs = 0
        self.max_cache_age = 2  # the server's global.maxCachedMessageAge, from its new_session

    # --- connection -------------------------------------------------------------------------
    def _get(self, path: str) -> None:
        with self.http.open(self.base_url + path, timeout=self.timeout) as r:
            r.read()

    def _connect(self, path: str, query: str) -> None:
        self._get(f"/{path}" + (f"?{query}" if query else ""))
        self._get("/_stcore/health")
        self._get("/_stcore/host-config")
        cookie = "; ".join(f"{c.name}={c.value}" for c in self.cookies)
        self.ws = websocket.create_connection(
            self.base_url.replace("http", "ws", 1) + "/_stcore/stream",
            subprotocols=["streamlit"],
            cookie=cookie or None,
            timeout=self.timeout,
        )

    def close(self) -> None:
        """Close the tab as a browser does: send the close frame and drop the connection.

        Not ``WebSocket.close``, which waits up to 3 s for the server's answer inside a bare
        ``except: pass``: a Locust user stopped during that wait swallowed its ``GreenletExit``,
        walked on, and the runner waited for it for ever (a CI run's learners hung 444 s).
        """
        if self.ws is None:
            return
        ws, self.ws = self.ws, None
        try:
            ws.send_close()
        except (OSError, websocket.WebSocketException):
            pass  # the server has gone already
        finally:
            ws.shutdown()

    @property
    def widgets(self) -> dict[str, Widget]:
        """The page's widgets, by the key the app gave each."""
        return {key_of(i): w for i, w in self.on_page.items()}

    # --- the messages -------------------------------------------------------------------------
    def open(self, path: str, query: str = "") -> Run:
        """Load ``/<path>?<query>`` in a fresh tab: the page's HTTP requests, then its first run."""
        self._connect(path, query)
        self.query_string = query
        return self._rerun(ClientState(page_name=path, query_string=query))

    def follow(self, link: Any) -> Run:
        """Click a page link (``st.page_link``): that page, with the link's query string."""
        self.states.clear()  # the frontend drops the old page's widgets
        self.on_page.clear()
        self.query_string = link.query_string  # and writes the link's query into the address bar
        state = ClientState(page_script_hash=link.page_script_hash, query_string=self.query_string)
        return self._rerun(state)

    def click(self, key: str) -> Run:
        """Press the button with this key."""
        w = self.widgets[key]
        return self._send(w, WidgetState(id=w.id, trigger_value=True))

    def choose(self, key: str, option: str) -> Run:
        """Pick ``option`` (its label as drawn) in the radio or select box with this key."""
        w = self.widgets[key]
        return self._send(w, WidgetState(id=w.id, string_value=option))

    def enter(self, key: str, value: float) -> Run:
        """Type ``value`` into the number input with this key."""
        w = self.widgets[key]
        return self._send(w, WidgetState(id=w.id, double_value=value))

    def move(self, key: str, rng: random.Random) -> Run:
        """Move the control with this key one notch, up or down (down when it stands at its top);
        a control bound to the URL writes its new value into the address bar, as the frontend
        does (and drops it there when it is back at its default)."""
        w = self.widgets[key]
        state = nudged(w, self.states.get(w.id) or held(w), rng)
        if w.proto.query_param_key:
            self._bind(w, state)
        return self._send(w, state)

    def _bind(self, w: Widget, state: WidgetState) -> None:
        p, which = w.proto, state.WhichOneof("value")
        if which == "bool_value":
            value, default = str(state.bool_value).lower(), str(p.default).lower()
        elif which == "double_array_value":
            value = ",".join(f"{v:g}" for v in state.double_array_value.data)
            default = ",".join(f"{v:g}" for v in p.default)
        elif which == "string_array_value":
            value = ",".join(state.string_array_value.data)
            default = ",".join(p.options[int(i)] for i in p.default)
        else:
            value = state.string_value
            default = p.options[p.default] if p.options else ""
        query = [(k, v) for k, v in urllib.parse.parse_qsl(self.query_string) if k != p.query_param_key]
        if value != default:
            query.append((p.query_param_key, value))
        self.query_string = urllib.parse.urlencode(query)

    def _send(self, w: Widget, state: WidgetState) -> Run:
        self.states[w.id] = state
        try:
            return self._rerun(
                ClientState(
                    page_script_hash=self.page_script_hash,
                    query_string=self.query_string,
                    fragment_id=w.fragment_id,
                )
            )
        finally:  # a button's trigger is one press: the frontend resets it after sending
            if state.WhichOneof("value") == "trigger_value":
                self.states.pop(w.id, None)

    def _rerun(self, state: ClientState) -> Run:
        if self.ws is None:
            raise SessionError("not connected")
        for wid, w in self.on_page.items():
            if (value := self.states.get(wid) or held(w)) is not None:
                state.widget_states.widgets.append(value)
        for h in [h for h, at in self.cache_age.items() if self.runs - at > self.max_cache_age]:
            del self.cache[h], self.cache_age[h]  # as the frontend's cache forgets old messages
        state.cached_message_hashes.extend(self.cache)
        self.runs += 1
        state.context_info.CopyFrom(
            ContextInfo(
                timezone="UTC",
                timezone_offset=0,
                locale="en-US",
                url=f"{self.base_url}/?{self.query_string}",
                is_embedded=False,
                color_scheme=self.color_scheme,
            )
        )
        t0 = time.perf_counter()
        try:
            self.ws.send_binary(BackMsg(rerun_script=state).SerializeToString())
            run = self._receive(t0)
        except (OSError, websocket.WebSocketException) as e:
            self.close()
            raise SessionError(f"connection lost: {type(e).__name__}: {e}") from e
        if run.exceptions:
            raise SessionError(f"exception on the page: {run.exceptions[0][:200]}")
        return run

    def _receive(self, t0: float) -> Run:
        assert self.ws is not None
        run = Run(0.0)
        widgets: dict[str, Widget] = {}
        fragment = False
        while True:
            data = self.ws.recv()
            if not isinstance(data, bytes) or not data:
                raise websocket.WebSocketConnectionClosedException("closed by the server")
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if kind == "ref_hash":  # the server trusts the cache this client reported
                self.cache_age[msg.ref_hash] = self.runs
                msg = self.cache[msg.ref_hash]
                kind = msg.WhichOneof("type")
            elif msg.metadata.cacheable:
                self.cache[msg.hash], self.cache_age[msg.hash] = msg, self.runs
            if kind == "new_session":  # a run starts (one action may chain several)
                self.max_cache_age = msg.new_session.config.max_cached_message_age
                widgets, run.elements, run.links = {}, [], []
            elif kind == "navigation":  # the page st.navigation chose: the one on screen
                self.page_script_hash = msg.navigation.page_script_hash
                self.pages = {p.url_pathname: p.page_script_hash for p in msg.navigation.app_pages}
            elif kind == "page_info_changed":
                self.query_string = msg.page_info_changed.query_string
            elif kind == "page_not_found":
                run.exceptions.append(f"page not found: {msg.page_not_found.page_name}")
            elif kind == "session_event" and msg.session_event.HasField("script_compilation_exception"):
                run.exceptions.append(str(msg.session_event.script_compilation_exception.message))
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                el_kind = str(msg.delta.new_element.WhichOneof("type"))
                el = getattr(msg.delta.new_element, el_kind)
                run.elements.append((el_kind, el))
                if el_kind == "exception":
                    run.exceptions.append(f"{el.type}: {el.message}")
                elif el_kind == "page_link":
                    run.links.append(el)
                elif getattr(el, "id", "") and isinstance(el.id, str):
                    widgets[el.id] = Widget(el_kind, el, msg.delta.fragment_id)
                    if getattr(el, "set_value", False):  # the app set it: the frontend shows that
                        self.states.pop(el.id, None)
            elif kind == "script_finished":
                if msg.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    run.exceptions.append("the script did not compile")
                if msg.script_finished in DONE or run.exceptions:
                    fragment = msg.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
                    break
        run.seconds = time.perf_counter() - t0
        run.widgets = {key_of(i): w for i, w in widgets.items()}
        if fragment:  # a fragment redraws its own widgets; the rest of the page stays
            self.on_page.update(widgets)
        else:
            self.on_page = widgets
            self.states = {i: v for i, v in self.states.items() if i in widgets}
        return run


def _has(proto: Any, name: str) -> bool:
    """Whether an optional field of ``proto`` is set (a field without presence counts as set)."""
    try:
        return bool(proto.HasField(name))
    except ValueError:
        return True


def held(w: Widget) -> WidgetState | None:
    """The value the frontend holds for ``w`` as the last run drew it: the value the app set, else
    the default; None for a widget that holds none (a button, a chart, an empty choice)."""
    p, state = w.proto, WidgetState(id=w.id)
    if w.kind == "checkbox":
        state.bool_value = p.value if p.set_value else p.default
    elif w.kind == "slider":
        values = list(p.value) if p.set_value else list(p.default)
        if not values:
            return None
        if p.options:  # a select slider: its values are indices into its options, sent as labels
            state.string_array_value.data.extend(p.options[int(i)] for i in values)
        else:
            state.double_array_value.data.extend(values)
    elif w.kind in ("radio", "selectbox"):
        if p.set_value and _has(p, "raw_value"):
            state.string_value = p.raw_value
        elif not p.set_value and _has(p, "default") and 0 <= p.default < len(p.options):
            state.string_value = p.options[p.default]
        else:
            return None
    elif w.kind == "number_input":
        if p.set_value and _has(p, "value"):
            state.double_value = p.value
        elif not p.set_value and _has(p, "default"):
            state.double_value = p.default
        else:
            return None
    elif w.kind in ("text_input", "text_area"):
        if p.set_value and _has(p, "value"):
            state.string_value = p.value
        elif not p.set_value and _has(p, "default"):
            state.string_value = p.default
        else:
            return None
    else:
        return None
    return state


def nudged(w: Widget, now: WidgetState | None, rng: random.Random) -> WidgetState:
    """``w`` moved one notch from ``now``: a slider's step, a select slider's, radio's or select
    box's neighbouring option, a checkbox flipped. Up or down at random, down at the top."""
    p = w.proto
    if w.kind == "checkbox":
        return WidgetState(id=w.id, bool_value=not (now is not None and now.bool_value))
    if w.kind == "slider" and not p.options:
        values = list(now.double_array_value.data) if now is not None else [p.min]
        up = values[-1] + p.step <= p.max and (values[-1] - p.step < p.min or rng.random() < 0.5)
        state = WidgetState(id=w.id)
        state.double_array_value.data.extend([*values[:-1], values[-1] + (p.step if up else -p.step)])
        return state
    options = list(p.options)
    label = (now.string_array_value.data[-1] if w.kind == "slider" else now.string_value) if now else ""
    at = options.index(label) if label in options else 0
    new = at + 1 if at + 1 < len(options) and (at == 0 or rng.random() < 0.5) else at - 1
    if w.kind == "slider":
        state = WidgetState(id=w.id)
        state.string_array_value.data.append(options[new])
        return state
    return WidgetState(id=w.id, string_value=options[new])
