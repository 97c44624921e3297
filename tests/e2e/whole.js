// What a reader sees of each chart's texts (tests/e2e/whole.py says what is checked).
(() => {
  const faults = [];
  const SLACK = 0.5;  // px: a box's edge rounding
  const inside = (r, b) => r.left >= b.left - SLACK && r.right <= b.right + SLACK &&
                           r.top >= b.top - SLACK && r.bottom <= b.bottom + SLACK;
  // A text's own box, turned as it is drawn (a tick label at 45° or 90°), as four screen points:
  // two turned labels side by side share much of their upright boxes, never of their own.
  const quad = (t) => {
    const b = t.getBBox(), m = t.getScreenCTM();
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
      .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
  };
  // Whether two convex quads overlap by more than SLACK, by separating axes (each edge's normal).
  const over = (p, q) => {
    for (const poly of [p, q]) {
      for (let i = 0; i < 4; i++) {
        const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % 4];
        const len = Math.hypot(x2 - x1, y2 - y1) || 1;
        const n = [(y1 - y2) / len, (x2 - x1) / len];
        const span = (pts) => pts.map(([x, y]) => x * n[0] + y * n[1]);
        const a = span(p), c = span(q);
        if (Math.min(Math.max(...a), Math.max(...c)) - Math.max(Math.min(...a), Math.min(...c)) <= SLACK) return false;
      }
    }
    return true;
  };
  const shown = (t) => {
    const r = t.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return null;
    for (let e = t; e && e.tagName !== "svg"; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === "none" || s.visibility === "hidden" || Number(s.opacity) === 0) return null;
    }
    return r;
  };
  const plain = (s) => String(s ?? "").replace(/<br\s*\/?>/gi, "").replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").trim();
  const TEXTS = [
    [".xtick text", "tick label"], [".ytick text", "tick label"],
    ["[class^='g-x'][class$='title'] text", "axis title"], ["[class^='g-y'][class$='title'] text", "axis title"],
    [".legendtext", "legend entry"], [".legendtitletext", "legend title"], [".gtitle", "title"],
    [".annotation-text", "annotation"], [".cbtitle text", "colour bar title"], [".cbaxis text", "colour bar label"],
  ];
  for (const chart of document.querySelectorAll(".aww-chart")) {
    const name = chart.dataset.name || "(unnamed chart)";
    const gd = chart.querySelector(".aww-plot.js-plotly-plot");
    if (!gd || !gd._fullLayout) continue;
    const box = gd.getBoundingClientRect();
    const say = (kind, text, what) => faults.push(`${name} :: ${kind} '${text}' ${what}`);
    const found = [];
    for (const [sel, kind] of TEXTS) {
      for (const t of gd.querySelectorAll(sel)) {
        const r = shown(t);
        if (!r) continue;
        const axis = t.closest("[class$='title']") ? t.closest("[class$='title']").getAttribute("class").slice(2, -5) : null;
        found.push({ kind, axis, text: t.textContent, r, q: quad(t) });
        if (!inside(r, box)) {
          const at = [r.left - box.left, r.top - box.top, r.right - box.left, r.bottom - box.top].map(Math.round);
          say(kind, t.textContent, `is cut by the chart's box (${at}, box ${Math.round(box.width)} × ${Math.round(box.height)})`);
        }
      }
    }
    const fl = gd._fullLayout;
    const axes = Object.keys(fl).filter((k) => /^[xy]axis\d*$/.test(k) && fl[k] && fl[k].visible !== false);
    for (const key of axes) {
      const ax = fl[key];
      if (ax.showticklabels === false) continue;
      const id = ax._id;  // "x", "y2"
      const ticks = Array.from(gd.querySelectorAll(`.${id}tick text`)).map((t) => ({ t, r: shown(t) }))
        .map((k) => ({ ...k, q: k.r ? quad(k.t) : null }));
      // Every label Plotly computed for a tick inside the range is drawn, and drawn whole.
      const drawn = new Map(ticks.filter((k) => k.r).map((k) => [plain(k.t.textContent), k]));
      const lo = Math.min(...ax.range), hi = Math.max(...ax.range);
      for (const v of ax._vals || []) {
        const text = plain(v.text);
        if (!text || v.x < lo - 1e-9 || v.x > hi + 1e-9) continue;
        if (!drawn.has(text)) say("tick label", text, `of ${key} is computed but not shown whole`);
      }
      const rects = ticks.filter((k) => k.r);
      for (let i = 0; i < rects.length; i++)
        for (let j = i + 1; j < rects.length; j++)
          if (over(rects[i].q, rects[j].q))
            say("tick label", rects[i].t.textContent, `lies over the tick label '${rects[j].t.textContent}' of ${key}`);
      for (const title of found.filter((f) => f.kind === "axis title" && f.axis === id))
        for (const k of rects)
          if (over(title.q, k.q)) { say("axis title", title.text, `lies over the tick label '${k.t.textContent}'`); break; }
    }
    // A title, a legend entry or an annotation lies over no tick label or axis title.
    const labels = found.filter((f) => f.kind === "tick label" || f.kind === "axis title");
    for (const f of found.filter((f) => ["title", "legend entry", "annotation"].includes(f.kind)))
      for (const k of labels)
        if (over(f.q, k.q)) { say(f.kind, f.text, `lies over the ${k.kind} '${k.text}'`); break; }
    // A legend names only what is drawn: a trace in the legend has a point inside its axes' ranges.
    const inRange = (ax, v) => {
      if (!ax || !ax.range || v === null || v === undefined) return true;
      const c = ax.type === "log" ? (v > 0 ? Math.log10(v) : -Infinity) : ax.type === "category" ? null : Number(v);
      if (c === null || Number.isNaN(c)) return true;
      return c >= Math.min(...ax.range) - 1e-9 && c <= Math.max(...ax.range) + 1e-9;
    };
    for (const tr of gd._fullData || []) {
      if (!tr.showlegend || tr.visible !== true || !tr.xaxis || !Array.isArray(tr.x) || !Array.isArray(tr.y)) continue;
      const xa = fl[`xaxis${tr.xaxis.slice(1)}`], ya = fl[`yaxis${tr.yaxis.slice(1)}`];
      const seen = tr.x.some((x, i) => inRange(xa, x) && inRange(ya, tr.y[i]));
      if (!seen) say("legend entry", tr.name, "names a trace with no point inside the plot");
    }
  }
  return faults;
})
