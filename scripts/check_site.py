"""Open every page of the built docs site (_docs/, from scripts/docs.py) in headless Chromium, with every request
outside this machine blocked, and fail on what a reader would see wrong: a page that does not load or logs a console
error (a missing file, a script error, a request to the network); raw Markdown, Quarto or directive syntax in the
text; math that MathJax did not render; an image with no size; an internal link or anchor that goes nowhere.
Saves screenshots of the index and of a kernel notebook's page. Needs Debian's chromium and chromium-driver, and
selenium (the docs extra). Run from the repo root after the build:
    python scripts/check_site.py [--site _docs] [--shots _artifacts/docs] [--full]
"""
import argparse, functools, http.server, re, sys, threading, time
from pathlib import Path
from urllib.parse import urlsplit, unquote

# Syntax that means something was not rendered, in the text a reader sees (code blocks and rendered math excluded)
RAW = {'Quarto cell option': r'#\|', 'Quarto div fence': r'(^|\s):::', 'Quarto link attributes': r'\{target=',
       'attribute braces': r'\{[.#][\w-]+', 'display math': r'\$\$', 'inline math': r'\$[^\s$][^$\n]{0,80}\$',
       'raw TeX': r'\\(begin|end|frac|tfrac|mathrm|left|right|tilde|sum|varphi)\b', 'Markdown link': r'\]\((https?:|#|\./|[\w-]+\.(html|ipynb|md))',
       'Markdown heading': r'(^|\n)#{1,6} \w', 'Markdown emphasis': r'(^|\s)\*\*\w[^*\n]*\*\*|\w[.,:;)]?\*(\s|$)', 'MyST directive': r'```\{|\{(toctree|note|warning)\}',
       'HTML comment': r'<!--'}

TEXT_JS = """
const skip = 'pre, code, script, style, mjx-container, .highlight, textarea, noscript';
const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), out = [];
let n; while ((n = w.nextNode())) { const p = n.parentElement;
  if (p && !p.closest(skip) && p.offsetParent !== null) out.push(n.textContent); }
return out.join('\\n');"""

MATH_JS = """
const done = arguments[arguments.length - 1];
if (!document.querySelector('.math')) { done('none'); return; }
const t0 = Date.now();
(function wait() {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(() => done('ok'), e => done('error: ' + e));
  else if (Date.now() - t0 > 20000) done('MathJax never started');
  else setTimeout(wait, 50);
})();"""

PAGE_JS = """
const math = [...document.querySelectorAll('.math')];
return {
  math: math.length,
  // not typeset, a TeX error, or an undefined macro (MathJax shows it as red text, its assistive MathML says so)
  math_raw: math.filter(e => !e.querySelector('mjx-container') || e.querySelector('mjx-merror, [mathcolor="red"]')
                             || /\\[a-zA-Z]/.test(e.textContent)).map(e => e.textContent.slice(0, 80)),
  images: [...document.images].map(i => [i.currentSrc || i.src, i.complete, i.naturalWidth, i.naturalHeight]),
  links: [...document.querySelectorAll('a[href]')].map(a => a.href),
  ids: [...document.querySelectorAll('[id], a[name]')].map(e => e.id || e.name),
  title: document.title,
};"""

def serve(root):
    "A static server for the site on 127.0.0.1 (a free port), in a thread."
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a): pass
    h = functools.partial(Quiet, directory=str(root))
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), h)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, f'http://127.0.0.1:{srv.server_address[1]}/'

def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    o = webdriver.ChromeOptions()
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=1280,900',
              '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',   # nothing outside this machine resolves
              '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'):
        o.add_argument(a)
    for b in ('/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'):
        if Path(b).exists(): o.binary_location = b; break
    o.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    drv = shutil_which('chromedriver')
    d = webdriver.Chrome(options=o, service=Service(drv) if drv else None)
    d.set_script_timeout(30); d.set_page_load_timeout(60)
    return d

def shutil_which(n):
    import shutil
    return shutil.which(n) or next((p for p in ('/usr/bin/chromedriver', '/usr/lib/chromium/chromedriver') if Path(p).exists()), None)

def screenshot(d, path, full):
    "The page as a reader first sees it, or the whole page with --full."
    import base64
    path.parent.mkdir(parents=True, exist_ok=True)
    if not full: return d.save_screenshot(str(path))
    h = d.execute_script('return document.documentElement.scrollHeight')
    d.execute_cdp_cmd('Emulation.setDeviceMetricsOverride', {'width': 1280, 'height': min(h, 16000), 'deviceScaleFactor': 1, 'mobile': False})
    path.write_bytes(base64.b64decode(d.execute_cdp_cmd('Page.captureScreenshot', {'captureBeyondViewport': True})['data']))
    d.execute_cdp_cmd('Emulation.clearDeviceMetricsOverride', {})

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--site', default='_docs'); ap.add_argument('--shots', default='_artifacts/docs')
    ap.add_argument('--shoot', nargs='*', default=['index.html', 'kernel_banded.html'], help='pages to screenshot')
    ap.add_argument('--full', action='store_true', help='full-page screenshots')
    a = ap.parse_args()
    site = Path(a.site).resolve()
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob('*.html') if not p.relative_to(site).parts[0].startswith('_'))
    if 'index.html' not in pages: sys.exit(f'{site}/index.html missing: build the site first (python scripts/docs.py)')
    srv, base = serve(site)
    d, fails, ids, links, n_math, n_img = browser(), [], {}, [], 0, 0
    t0 = time.time()
    try:
        for page in pages:
            bad = lambda msg: fails.append(f'{page}: {msg}')
            d.get(base + page)
            if (m := d.execute_async_script(MATH_JS)) not in ('ok', 'none'): bad(f'math: {m}')
            r = d.execute_script(PAGE_JS)
            for e in d.get_log('browser'):   # (the favicon a browser asks for by itself is not the site's)
                if e['level'] in ('SEVERE', 'ERROR') and '/favicon.ico ' not in e['message']: bad(f"console: {e['message'][:200]}")
            if not r['title'] or '404' in r['title']: bad(f"title {r['title']!r}")
            text = d.execute_script(TEXT_JS)
            for what, rx in RAW.items():
                for m in list(re.finditer(rx, text))[:3]:
                    bad(f"raw {what}: ...{text[max(0, m.start() - 40):m.end() + 40]!r}...")
            n_math += r['math']
            for t in r['math_raw']: bad(f'math not rendered: {t!r}')
            for src, ok, w, h in r['images']:
                n_img += 1
                if not (ok and w and h): bad(f'image with no size: {src}')
            ids[page] = set(r['ids'])
            links += [(page, l) for l in r['links']]
            if page in a.shoot: screenshot(d, Path(a.shots)/page.replace('/', '_').replace('.html', '.png'), a.full)
        n_int = 0
        for page, l in links:                                   # internal links: the file exists, and so does its anchor
            u = urlsplit(l)
            if not l.startswith(base): continue
            n_int += 1
            path = unquote(u.path.lstrip('/')) or 'index.html'
            if path.endswith('/'): path += 'index.html'
            if not (site/path).exists(): fails.append(f'{page}: link to a missing file {path}'); continue
            if u.fragment and path.endswith('.html'):
                if path not in ids: d.get(base + path); ids[path] = set(d.execute_script(PAGE_JS)['ids'])
                if unquote(u.fragment) not in ids[path]: fails.append(f'{page}: link to a missing anchor {path}#{u.fragment}')
    finally:
        d.quit(); srv.shutdown()
    fails = list(dict.fromkeys(fails))
    for f in fails: print('FAIL', f)
    print(f'site: {len(pages)} pages, {n_math} math elements, {n_img} images, {n_int} internal links in {time.time() - t0:.0f} s; '
          f'screenshots in {a.shots}/')
    print(f'site: {len(pages) - len({f.split(":")[0] for f in fails})} passed, {len({f.split(":")[0] for f in fails})} failed')
    sys.exit(1 if fails else 0)

if __name__ == '__main__': main()
