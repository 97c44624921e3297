// The app's chart element (ui.chart): one Plotly chart that keeps its place across reruns and
// hands each new spec to Plotly.react, which updates what changed instead of drawing anew.
//
// Python sends `data` as bytes: one line of JSON (the chart's name, its height, whether a click
// picks a cell, the page's background) and then the spec's JSON, as Plotly wrote it. The element
// holds the plot (role="img", or a named figure for a 3-D scene, with the chart's name) and a row
// of two buttons, PNG and SVG, drawn by Plotly's own toImage. While a spec waits for Plotly (its
// first load, or an update), the element carries data-drawing="true".

const PLOTLY_URL = new URL("./plotly.min.js", import.meta.url).href;
const ROW = "aww-export";
const charts = new WeakMap();
const decoder = new TextDecoder();
let loading = null;

// plotly.min.js, the installed plotly package's own (served beside this file), once per page.
function plotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = PLOTLY_URL;
      script.async = true;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => {
        loading = null;
        reject(new Error("plotly.min.js did not load"));
      };
      document.head.appendChild(script);
    });
  }
  return loading;
}

function decode(data) {
  const text = typeof data === "string" ? data : decoder.decode(data);
  const cut = text.indexOf("\n");
  return { head: JSON.parse(text.slice(0, cut)), spec: JSON.parse(text.slice(cut + 1)) };
}

function save(url, filename) {
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

// The chart as an image file, by Plotly's toImage, on the page's background so a dark chart stays
// readable (the chart itself is transparent over the page).
async function download(c, format) {
  const P = await plotly();
  const gd = c.plot;
  if (!gd.data) return;
  const box = gd.getBoundingClientRect();
  const layout = { ...gd.layout, paper_bgcolor: c.head.background };
  const url = await P.toImage(
    { data: gd.data, layout, config: { staticPlot: true } },
    { format, width: Math.round(box.width), height: Math.round(box.height), scale: format === "png" ? 2 : 1 },
  );
  save(url, `${c.head.file}.${format}`);
}

function mount(parent) {
  const root = document.createElement("div");
  root.className = "aww-chart";
  const plot = document.createElement("div");
  plot.className = "aww-plot";
  const row = document.createElement("div");
  row.className = ROW;
  root.append(plot, row);
  parent.appendChild(root);
  const c = { root, plot, row, head: null, spec: null, trigger: null, busy: false, again: false };
  for (const format of ["png", "svg"]) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = format.toUpperCase();
    b.dataset.format = format;
    b.addEventListener("click", () => download(c, format).catch((e) => console.error(e)));
    row.appendChild(b);
  }
  let width = 0;
  c.observer = new ResizeObserver((entries) => {
    const w = Math.round(entries[0].contentRect.width);
    if (w === width) return;
    // Only a plot on screen: Plotly refuses to resize one that is hidden or being taken away.
    if (!window.Plotly || !c.plot.data || !c.plot.isConnected || c.plot.offsetParent === null) return;
    width = w;
    // Laid out again for its new width (whole). At the width it was drawn at (a new chart's first
    // observation) there is nothing to do: Plots.resize redrew it all, 300 ms for a 3-D scene.
    if (c.spec && w !== c.width) draw(window.Plotly, c);
  });
  c.observer.observe(root);
  return c;
}

// The chart's name, on the plot itself: announced once, as one image (a 3-D scene, which a reader
// turns by dragging, as a figure), its numbers read from "Values as a table" beneath.
function name(c) {
  const { head } = c;
  const role = head.scene ? "figure" : "img";
  if (c.plot.getAttribute("role") !== role) c.plot.setAttribute("role", role);
  if (c.plot.getAttribute("aria-label") !== head.name) c.plot.setAttribute("aria-label", head.name);
  c.plot.style.height = `${head.height}px`;
  c.root.dataset.name = head.name;
  for (const b of c.row.children)
    b.setAttribute("aria-label", `Download ${head.name} as ${b.dataset.format.toUpperCase()}`);
}

function clicked(c, event) {
  if (!c.head.pick) return;
  const point = (event.points || []).find((p) => Array.isArray(p.customdata) && p.customdata.length === 3);
  if (point) c.trigger("click", point.customdata.map(Number));
}

// Every chart laid out whole, without a chart asking:
// - each cartesian axis that a trace or the layout names asks Plotly for the room its tick labels
//   and title need (automargin), unless the chart says otherwise; without it Plotly keeps the
//   spec's tight margins and cuts whatever lies past them. Its end labels are drawn and given room
//   too (ticklabeloverflow "allow"): by default Plotly hides a label that would pass the div, so
//   the last tick of an axis that ends on one ("5,000") went missing;
// - a title wider than the plot is broken at its spaces into lines that fit (Plotly never wraps a
//   title), and the top margin grows to hold the lines;
// - a level legend below the plot sits at the chart's foot (yref "container"), where Plotly makes
//   room for it under the x axis's labels and title: placed a share of the plot's height below
//   it, it lay over the axis title as soon as automargin moved that title down.
const AXIS = /^[xy]axis\d*$/;
const LINE = 1.3; // Plotly's line spacing, in font sizes
const ruler = document.createElement("canvas").getContext("2d");

function textWidth(markup, font) {
  ruler.font = `${font.size}px ${font.family}`;
  const plainText = markup.replace(/<[^>]*>/g, "").replace(/&[a-z]+;|&#\d+;/g, "x");
  return ruler.measureText(plainText).width;
}

// The line's words, each with the markup around it (a space inside a tag never breaks it).
function words(line) {
  const out = [""];
  for (const piece of line.split(/(<[^>]*>)/)) {
    if (piece.startsWith("<")) out[out.length - 1] += piece;
    else {
      const parts = piece.split(" ");
      out[out.length - 1] += parts[0];
      out.push(...parts.slice(1));
    }
  }
  return out.filter((w) => w !== "");
}

function wrapped(text, room, font) {
  const lines = [];
  for (const line of text.split(/<br\s*\/?>/i)) {
    let current = "";
    for (const word of words(line)) {
      const next = current ? `${current} ${word}` : word;
      if (current && textWidth(next, font) > room) {
        lines.push(current);
        current = word;
      } else current = next;
    }
    lines.push(current);
  }
  return lines;
}

// Plotly sets a title's first line on the middle of the top margin ("auto") and the next ones
// below it: the margin holds twice the lines past the first, the last line's descent and half a
// tick label (the top tick's label reaches above the plot by half its height).
function wrapTitle(layout, width) {
  const title = layout.title;
  if (!title || typeof title !== "object" || !title.text || !(width > 0)) return;
  const font = { size: 17, family: "sans-serif", ...(layout.font || {}), ...(title.font || {}) };
  const pad = title.pad || {};
  const lines = wrapped(title.text, width - (pad.l || 0) - (pad.r || 0) - 4, font);
  if (lines.length === 1) return;
  const margin = { l: 80, r: 80, t: 100, b: 80, ...(layout.margin || {}) };
  const below = (lines.length - 1) * font.size * LINE;
  layout.title = { ...title, text: lines.join("<br>") };
  layout.margin = { ...margin, t: Math.max(margin.t, Math.ceil(2 * (below + 15))) };
}

function whole(layout, data, width) {
  const axes = new Set(Object.keys(layout).filter((k) => AXIS.test(k)));
  for (const trace of data) {
    if (trace.type === "scatter3d" || trace.type === "pie" || trace.type === "sankey") continue;
    axes.add(`xaxis${(trace.xaxis || "x").slice(1)}`);
    axes.add(`yaxis${(trace.yaxis || "y").slice(1)}`);
  }
  for (const axis of axes) layout[axis] = { automargin: true, ticklabeloverflow: "allow", ...layout[axis] };
  const legend = layout.legend;
  if (legend && legend.orientation === "h" && legend.y < 0 && !legend.yref)
    layout.legend = { ...legend, y: 0, yref: "container", yanchor: "bottom" };
  wrapTitle(layout, width);
  return layout;
}

function draw(P, c) {
  if (c.busy) {
    c.again = true;
    return;
  }
  c.busy = true;
  const { spec, head } = c;
  const layout = {
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "rgba(0,0,0,0)",
    ...spec.layout,
    autosize: true,
    height: head.height,
  };
  delete layout.width;
  c.width = Math.round(c.plot.getBoundingClientRect().width);
  P.react(c.plot, spec.data, whole(layout, spec.data, c.width), head.config)
    .then(() => {
      if (!c.listening) {
        c.plot.on("plotly_click", (event) => clicked(c, event));
        c.listening = true;
      }
    })
    .catch((e) => console.error(e))
    .finally(() => {
      c.busy = false;
      if (c.again) {
        c.again = false;
        draw(P, c);
      } else {
        delete c.root.dataset.drawing;
      }
    });
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let c = charts.get(parentElement);
  if (!c) {
    c = mount(parentElement);
    charts.set(parentElement, c);
  }
  Object.assign(c, decode(data), { trigger: setTriggerValue });
  c.root.dataset.drawing = "true"; // until Plotly has drawn this spec (a test's or a bench's sign)
  name(c);
  plotly()
    .then((P) => draw(P, c))
    .catch((e) => console.error(e));
  return () => {
    c.observer.disconnect();
    if (window.Plotly) window.Plotly.purge(c.plot);
    charts.delete(parentElement);
    c.root.remove();
  };
}
