/** What makes a page "rendered": the first visible element matching `css` (and containing `text`). */
export interface Ready {
  css: string;
  text?: string;
}

/**
 * Runs before the page's own scripts (page.addInitScript): records performance.now() (time since
 * navigation start) in `window[global]` on the first animation frame in which an element matching
 * `ready` is laid out. A plain script string, so no test-side transpilation reaches the browser.
 * Used by the browser test (e2e/dashboard.e2e-spec.ts) and by the dashboard bench
 * (tools/bench/suites/dashboard.bench.ts), which installs a second one under another name for the
 * page's data.
 */
export function firstRenderWatcher(ready: Ready, global = '__firstRender'): string {
  return `(() => {
    const ready = ${JSON.stringify(ready)};
    const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
    const check = () => {
      const found = Array.prototype.some.call(document.querySelectorAll(ready.css), (el) => visible(el) && (!ready.text || (el.textContent || '').includes(ready.text)));
      if (found) { window[${JSON.stringify(global)}] = performance.now(); return; }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })();`;
}
