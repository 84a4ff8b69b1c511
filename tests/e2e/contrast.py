"""WCAG 2.x AA contrast of what a page shows, from the browser's computed styles: every visible element
that holds text of its own (and every enabled form control) against the background it is drawn on (the
background colours of it and its ancestors composited, their opacity applied to the text), at least 4.5:1,
or 3:1 for large text (24 px, or 18.66 px bold); SVG text (the game viewer's board) by its fill against the filled
shape drawn under its middle. Disabled controls are exempt, as WCAG has them."""

from __future__ import annotations

SCAN = """() => {
  const parse = text => {
    const m = /rgba?\\(([^)]+)\\)/.exec(text || "");
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(v => v.endsWith("%") ? parseFloat(v) / 100 : Number(v));
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => [0, 1, 2].map(i => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  const channel = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const luminance = c => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
  const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const hex = c => "#" + c.slice(0, 3).map(v => Math.round(v).toString(16).padStart(2, "0")).join("");
  const name = el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\\s+/).join(".") : "");
  const failures = [];
  const check = (el, shown, background, size, bold) => {
    const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    const got = ratio(shown, background);
    if (got < needed) {
      failures.push(`${name(el)} "${(el.value || el.textContent).trim().slice(0, 30)}": ${hex(shown)} on ` +
                    `${hex(background)} ${got.toFixed(2)}:1 < ${needed}:1`);
    }
  };
  const backdrop = el => {
    let background = [255, 255, 255, 1], opacity = 1;
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.unshift(e);
    for (const e of chain) {
      const s = getComputedStyle(e);
      opacity *= Number(s.opacity);
      const c = parse(s.backgroundColor);
      if (c && c[3] > 0) background = over(c, background);
    }
    return [background, opacity];
  };
  // SVG text (the game viewer's board): its fill against the filled shape drawn under its middle
  for (const el of document.body.querySelectorAll("svg text")) {
    const box = el.getBoundingClientRect();
    if (!box.width || el.closest("[hidden]") || getComputedStyle(el).visibility !== "visible") continue;
    const svg = el.ownerSVGElement, [page, opacity] = backdrop(svg);
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    let under = null;  // the last filled shape before the text (painted under it) whose box holds its middle
    for (const shape of svg.querySelectorAll("rect, circle, ellipse, path, polygon")) {
      if (el.compareDocumentPosition(shape) & Node.DOCUMENT_POSITION_FOLLOWING) break;
      const r = shape.getBoundingClientRect();
      if (r.left <= x && x <= r.right && r.top <= y && y <= r.bottom && parse(getComputedStyle(shape).fill)) under = shape;
    }
    const background = under ? over(parse(getComputedStyle(under).fill), page) : page;
    const fg = parse(getComputedStyle(el).fill);
    fg[3] *= opacity;
    const scale = svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
    const style = getComputedStyle(el);
    check(el, over(fg, background), background, parseFloat(style.fontSize) * scale, Number(style.fontWeight) >= 700);
  }
  for (const el of document.body.querySelectorAll("*")) {
    if (el instanceof SVGElement) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== "visible" || !el.getClientRects().length || el.closest("[hidden], .sr-only")) continue;
    const control = el.matches("input:not([type=radio]):not([type=checkbox]):not([type=hidden]), select, textarea, button");
    if (control && el.disabled) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own && !(control && (el.value || el.textContent).trim())) continue;
    const [background, opacity] = backdrop(el);
    const fg = parse(style.color);
    fg[3] *= opacity;
    check(el, over(fg, background), background, parseFloat(style.fontSize), Number(style.fontWeight) >= 700);
  }
  return [...new Set(failures)];
}"""


def contrast_failures(page) -> list[str]:
    return page.evaluate(SCAN)


def assert_contrast(page, where: str = "") -> None:
    failures = contrast_failures(page)
    assert not failures, f"WCAG AA contrast fails on {where or page.url}: {failures}"
