"""Class: start a class, share its link, and watch the class's first guesses, live. Layout only:
the numbers and sentences come from ``view``; the database from ``ui.classroom``."""

from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st

from core.sentence import book, build
from topics.classroom import figures as class_figures
from topics.classroom import view
from ui import classroom, controls, figures
from ui.class_store import KEY_LENGTH, SENTENCE_MAX, Store, Unavailable, clean_code

REFRESH_S = 4
st.title("Class")
st.markdown(
    "Peer instruction, with the tour: each learner commits to a prediction, you see how the class "
    "split, they argue it out, then try again. Only first guesses are counted."
)


def main() -> None:  # each view returns early; the page's footer still follows
    maybe = classroom.store()
    if maybe is None:
        st.warning("The class's database cannot be reached, so no class can be started or shown now.")
        return
    store = maybe  # narrowed, for the functions below
    base = "{0.scheme}://{0.netloc}".format(urlsplit(st.context.url or "")) if st.context.url else ""

    def start(store: Store) -> None:
        with st.form("class_start"):
            text = st.text_input("One sentence for the whole class (optional)", max_chars=SENTENCE_MAX)
            started = st.form_submit_button("Start a class", type="primary")
        st.caption(
            "What is stored: each learner's first guess at each prediction, whether it was right, when, "
            "and a random id their browser keeps. No name, no address."
        )
        if started:
            try:
                code, key = store.create(text.strip() or None)
            except Unavailable:
                st.warning("The class's database cannot be reached: try again in a moment.")
                return
            st.query_params.from_dict({"class": code, "key": key})
            st.rerun()

    one = classroom.link_value
    raw, key, show = one("class", 40), one("key", KEY_LENGTH + 1), one("show", 40)
    code = clean_code(raw) if raw else None
    try:
        found = store.find(code) if code else None
    except Unavailable:
        st.warning("The class's database cannot be reached: this view will be back when it is.")
        return
    if raw and found is None:
        st.warning("There is no such class (a code is six letters and digits; it may have ended).")
    if found is None:
        st.markdown(
            "Start a class, then share its link or QR code: each learner's first guess at each prediction "
            "reaches this view, anonymously, as they make it. A class ends when you end it, or after "
            f"{classroom.hours():g} hours, and its records are deleted then."
        )
        start(store)
        return
    cls = found  # narrowed, for the functions below
    sentence = build(cls.sentence) if cls.sentence else book()
    learners = view.learners_path(cls.code, cls.sentence)
    is_instructor = key is not None and store.is_instructor(cls.code, key)
    if key is not None and not is_instructor:
        st.warning("That is not this class's key: nothing of the class is shown.")
        return
    steps = [d.key for _, d in view.asking()]

    def distribution(step_key: str, mark: bool) -> None:
        q = view.question(step_key, sentence)
        title = view.step_title(step_key)
        assert q is not None
        sp = view.split(title, q, store.guesses(cls.code, step_key))
        figures.show(class_figures.split_chart(sp, title, mark), key=f"class_split_{step_key}")
        st.caption(sp.summary if mark else sp.unmarked)
        if mark and sp.wrong:
            st.info(sp.wrong)

    if not is_instructor:
        if show in steps:  # the projector's view: the split at one step, no key, no answer marked
            st.subheader(f"Class {cls.code}")

            @st.fragment(run_every=REFRESH_S)
            def projected() -> None:
                try:
                    distribution(str(show), mark=False)
                except Unavailable:
                    st.caption("The class's database cannot be reached; this view will be back when it is.")

            projected()
        else:
            if show is not None:
                st.warning("That step asks no prediction, so there is nothing to show for it.")
            st.markdown(f"This is class {cls.code}. Learners join at [{base}{learners}]({learners}).")
            st.caption("The class's live view needs the instructor's link, with its key.")
        return

    st.subheader(f"Class {cls.code}")
    left, right = st.columns([2, 1])
    with left:
        st.markdown(f"**Learners' link:** [{base}{learners}]({learners})")
        st.caption(
            f"Or the code {cls.code} on the tour. Each learner's first guesses are shared anonymously."
        )
        st.markdown("**Your private link** (it holds the key: keep it to yourself):")
        st.code(f"{base}/class?{urlencode({'class': cls.code, 'key': key})}", language=None)
        picked = controls.select(  # bound to the link: a reload stays on the step
            "Step to look at",
            steps,
            key="class_step",
            default=steps[0],
            format_func=view.step_title,
            where=left,
        )
        projector = f"/class?{urlencode({'class': cls.code, 'show': picked})}"
        st.markdown(
            f"[Projector view of this step]({projector}) (no key in its address; the answer is not marked)"
        )
    with right:
        qr = segno.make(f"{base}{learners}", error="m").svg_inline(scale=5, dark="#000000", light="#ffffff")
        st.image(qr, caption=f"QR code of the learners' link, class {cls.code}", width=220)

    @st.fragment(run_every=REFRESH_S)
    def live() -> None:
        try:
            roll = store.roll(cls.code)
            rows = view.rows(store.guesses(cls.code))
        except Unavailable:
            st.warning("The class's database cannot be reached: the figures will be back when it is.")
            return
        st.markdown(view.roll_text(roll.joined, roll.active))
        st.table(class_figures.steps_table(rows))
        distribution(str(picked), mark=True)

    live()
    if st.button("End class", help="Deletes the class and every guess its learners sent."):
        store.end(cls.code)
        st.query_params.clear()
        st.rerun()


main()
