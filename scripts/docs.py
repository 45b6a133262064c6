"""Build the docs site into _docs/: nbdev's processing as `nbdev_docs` runs it, then `quarto render` where Quarto is
installed, and otherwise Sphinx (myst-nb) over the same processed notebooks.

Both paths read one configuration: settings.ini, and what nbdev writes from it into nbs/: nbdev.yml (title, site URL,
repo) and sidebar.yml (the reading order: nbdev's sidebar of the numbered notebooks, then the dated log nbs/log/ as a
section of its own); Quarto adds its _quarto.yml (theme and layout, which Sphinx takes from furo). Without Quarto, each processed notebook in _proc/ is turned into a MyST notebook that reads as
Quarto renders it (the front matter's title and description; `#|` options stripped, `echo: false` hides the source,
`output: asis` output read as Markdown; the page named by its `output-file`, so the doc links nbdev writes resolve),
and math is served from MathJax's npm package copied into the site (no CDN). Run from the repo root:
    python scripts/docs.py            # build _docs/ (a minute on two cores)
    python scripts/docs.py --sphinx   # the Quarto-free renderer even where Quarto is installed
Needs the docs extra: pip install -e ".[docs]", and npm (for MathJax) on the Quarto-free path.
"""
import argparse, contextlib, io, json, os, re, shutil, subprocess, sys
from pathlib import Path
import yaml

MATHJAX = 'mathjax@3.2.2'   # npm package: es5/tex-chtml.js and its fonts, copied into the site
BUILD = Path('_sphinx')     # the Quarto-free path's sources, doctrees and npm packages (a cache, not committed)

def log_pages(nbs):
    "The dated log, newest last, as paths relative to nbs/."
    return [p.relative_to(nbs).as_posix() for p in sorted((nbs/'log').glob('*.md'))]

def prepare(n_workers=None):
    """nbdev's steps of `nbdev_docs` before rendering (as nbdev.quarto._pre_docs, without installing Quarto).
    n_workers: processes for nbdev's processing (spawned: the caller's script needs a __main__ guard unless 0)."""
    import nbdev.doclinks
    from nbdev.config import get_config
    from nbdev.quarto import nbdev_sidebar, refresh_quarto_yml, IndentDumper
    from nbdev.serve import proc_nbs
    cfg = get_config()
    refresh_quarto_yml()
    nbdev.doclinks._build_modidx()
    nbdev_sidebar.__wrapped__(path=cfg.nbs_path)                  # the numbered notebooks, in reading order
    sb_path = cfg.nbs_path/'sidebar.yml'
    sb = yaml.safe_load(sb_path.read_text())
    if logs := log_pages(cfg.nbs_path):                             # the dated log: its own section, last
        sb['website']['sidebar']['contents'].append({'section': 'Log', 'contents': logs})
    sb_path.write_text(yaml.dump(sb, Dumper=IndentDumper, sort_keys=False))
    cache = proc_nbs(cfg.nbs_path, **({} if n_workers is None else {'n_workers': n_workers}))  # show_doc for every export
    fill_asis(cache)
    return cfg, Path(cache)

def fill_asis(cache):
    """Run each `#| output: asis` cell that has no stored output (the index's results tables), in order, in one
    namespace per notebook, from the repo root, and store what it prints: as scripts/make_readme.py does for the
    README, so the tables come from results/ by code."""
    os.environ.setdefault('MPLBACKEND', 'Agg')
    for p in sorted(cache.glob('*.ipynb')):
        nb, ns, changed = json.loads(p.read_text()), {}, False
        for c in nb['cells']:
            src = ''.join(c['source'])
            if c['cell_type'] != 'code' or c.get('outputs') or not re.search(r'^#\|\s*output:\s*asis\s*$', src, re.M): continue
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf): exec(compile(src, str(p), 'exec'), ns)
            c['outputs'] = [{'output_type': 'stream', 'name': 'stdout', 'text': buf.getvalue()}]
            changed = True
        if changed: p.write_text(json.dumps(nb, indent=1))

def render_quarto(cfg, cache):
    "nbdev_docs' last step: Quarto renders _proc/ into _proc/_docs, moved to _docs/."
    subprocess.run(['quarto', 'render', '--no-cache'], cwd=cache, check=True)
    shutil.rmtree(cfg.doc_path, ignore_errors=True)
    shutil.move(str(cache/cfg.doc_path.name), str(cfg.doc_path))

# ---------------------------------------------------------------- the Quarto-free path: Sphinx + myst-nb
def page_name(src, front):
    "The page a source becomes, without suffix: Quarto's `output-file` (nbdev's, e.g. compression.html) or its own stem."
    return front['output-file'].rsplit('.', 1)[0] if front.get('output-file') else Path(src).with_suffix('').as_posix()

def front_matter(nb):
    "The YAML front matter of a processed notebook (nbdev writes it as the first raw cell), and the cell's index."
    for i, c in enumerate(nb['cells'][:2]):
        s = ''.join(c['source']).strip()
        if c['cell_type'] == 'raw' and s.startswith('---') and s.endswith('---'): return yaml.safe_load(s.strip('-')) or {}, i
    return {}, None

QUARTO_OPTS = re.compile(r'^#\|\s*([\w-]+)\s*:\s*(.*?)\s*$')
SRC_LINK = re.compile(r'\{target="_blank" style="float:right; font-size:smaller"\}')  # nbdev's show_doc source link

def headings(nb):
    "The anchors of a processed notebook's headings, show_doc's included, as Quarto (pandoc) and nbdev name them."
    md = [''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'markdown']
    md += [''.join(o.get('data', {}).get('text/markdown', '')) for c in nb['cells'] for o in c.get('outputs', [])]
    return {i for t in md for h in re.findall(r'^#+ +(.+?)\s*$', t, re.M) for i in (pandoc_id(h), h.lower())}

def code_links(cfg):
    "Each documented-or-not symbol's doc link (page#anchor, from nbdev's _modidx) -> its line in the source on GitHub."
    import ast, importlib
    d, out = importlib.import_module(f'{cfg.lib_name}._modidx').d, {}
    for mod, syms in d['syms'].items():
        lines = {}
        for path in {p for _, p in syms.values()}:
            for n in ast.walk(ast.parse((cfg.config_path/path).read_text())):
                for c in getattr(n, 'body', []) if isinstance(n, (ast.Module, ast.ClassDef)) else []:
                    if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        lines[(path, (n.name + '.' if isinstance(n, ast.ClassDef) else '') + c.name)] = c.lineno
        for sym, (url, path) in syms.items():
            if ln := lines.get((path, sym[len(mod) + 1:])): out[url] = f"{cfg.git_url}/blob/{cfg.branch}/{path}#L{ln}"
    return out

def md_fix(text, pages, site, dead={}):
    """Quarto's Markdown as MyST reads it: nbdev's source-link style as a class; links to notebooks to their pages;
    a doc link to a name with no show_doc on its page (private ones, most methods; nbdev links them all) to its code."""
    text = SRC_LINK.sub('{.srclink target="_blank"}', text)
    text = re.sub(rf'\]\({re.escape(site)}([^)\s]+)\)', lambda m: f"]({dead.get(m[1], site + m[1])})", text)
    text = re.sub(r'\]\(([\w.-]+)\.ipynb(#[^)\s]*)?\)',
                  lambda m: f"]({site}{pages.get(m[1], m[1])}.html{m[2] or ''})", text)
    return text

def docstring_emphasis(md):
    "show_doc sets a docstring's first line in `*...*`: a `*` inside it (`i*d`) would end the emphasis and show: escaped."
    def esc(m):
        parts = re.split(r'(`[^`]*`)', m[1])
        return '*' + ''.join(p if p.startswith('`') else p.replace('*', r'\*') for p in parts) + '*'
    return re.sub(r'(?m)^\*(?!\*)(.+)\*$', esc, md)            # (its first line: the rest follows unemphasised)

def adapt_nb(nb, pages, site, dead):
    "A processed notebook as Quarto shows it, in myst-nb's terms."
    front, i = front_matter(nb)
    cells = []
    for j, c in enumerate(nb['cells']):
        src = ''.join(c['source'])
        if j == i:                                                  # front matter -> title and description
            md = f"# {front.get('title', '')}\n"
            if front.get('description'): md += f"\n{{.description}}\n{front['description']}\n"
            cells.append({'cell_type': 'markdown', 'metadata': {}, 'source': md}); continue
        if c['cell_type'] == 'raw': continue
        if c['cell_type'] == 'markdown':
            if src.strip() == '<!-- WARNING: THIS FILE WAS AUTOGENERATED! DO NOT EDIT! -->': continue
            cells.append({'cell_type': 'markdown', 'metadata': {}, 'source': md_fix(src, pages, site, dead),
                          **({'attachments': c['attachments']} if c.get('attachments') else {})}); continue
        lines, opts = src.splitlines(), {}
        while lines and lines[0].startswith('#|'):                  # Quarto's cell options, stripped as Quarto does
            if m := QUARTO_OPTS.match(lines.pop(0)): opts[m[1]] = m[2].strip('"\'').lower()
        c['source'] = '\n'.join(lines)
        tags = set(c.get('metadata', {}).get('tags', []))
        if opts.get('include') == 'false': continue
        if opts.get('echo') == 'false' or not c['source'].strip(): tags.add('remove-input')
        if opts.get('output') == 'false': tags.add('remove-output')
        if opts.get('code-fold') in ('true', 'show'): tags.add('hide-input')
        outs = []
        for o in c.get('outputs', []):
            if opts.get('output') == 'asis' and o['output_type'] == 'stream' and o.get('name') == 'stdout':
                o = {'output_type': 'display_data', 'metadata': {}, 'data': {'text/markdown': ''.join(o['text'])}}
            data = o.get('data', {})
            data.pop('application/vnd.jupyter.widget-view+json', None)  # no widget JS (it would come from a CDN)
            if 'text/markdown' in data:   # show_doc's rule above each name: a border in CSS (docutils allows no rule here)
                data['text/markdown'] = docstring_emphasis(re.sub(r'^---\s*$', '', md_fix(''.join(data['text/markdown']), pages, site, dead), flags=re.M))
            outs.append(o)
        c['outputs'] = outs
        c = {k: c[k] for k in ('cell_type', 'execution_count', 'source', 'outputs') if k in c}   # nbdev's has_sd etc. go
        c['metadata'] = {'tags': sorted(tags)} if tags else {}
        cells.append(c)
    for k, c in enumerate(cells): c['id'] = f'c{k}'
    nb['cells'] = cells
    nb['metadata'] = {'kernelspec': {'name': 'python3', 'display_name': 'Python 3', 'language': 'python'},
                      'language_info': {'name': 'python', 'pygments_lexer': 'ipython3'}}
    return nb

def sidebar(nbs):
    "nbs/sidebar.yml as [(caption, [source paths])], in reading order."
    groups, top = [], []
    for e in yaml.safe_load((nbs/'sidebar.yml').read_text())['website']['sidebar']['contents']:
        if isinstance(e, dict): groups.append((e.get('section'), e.get('contents', [])))
        else: top.append(e)
    return [(None, top)] + groups

def sphinx_sources(cfg, cache, src):
    "Write the MyST sources into src/ and return the toctree groups of page names."
    site = f"{cfg.doc_host.rstrip('/')}{cfg.doc_baseurl.rstrip('/')}/"
    nbs = {p.name: json.loads(p.read_text()) for p in sorted(cache.glob('*.ipynb'))}
    pages = {Path(n).stem: page_name(n, front_matter(nb)[0]) for n, nb in nbs.items()}
    shutil.rmtree(src, ignore_errors=True); src.mkdir(parents=True)
    anchors = {f'{pages[Path(n).stem]}.html#{a}' for n, nb in nbs.items() for a in headings(nb)}
    dead = {u: code for u, code in code_links(cfg).items() if '#' in u and u not in anchors}
    for n, nb in nbs.items(): (src/f'{pages[Path(n).stem]}.ipynb').write_text(json.dumps(adapt_nb(nb, pages, site, dead)))
    for p in cache.rglob('*'):                                      # the log, images and other files, as they are
        rel = p.relative_to(cache)
        if p.is_dir() or p.suffix in ('.ipynb', '.yml') or rel.parts[0].startswith(('_', '.')) or p.name == 'styles.css': continue
        (src/rel).parent.mkdir(parents=True, exist_ok=True)
        if p.suffix == '.md': (src/rel).write_text(md_fix(p.read_text(), pages, site, dead))
        else: shutil.copy2(p, src/rel)
    toc = [(cap, [pages.get(Path(e).stem, Path(e).with_suffix('').as_posix()) for e in es]) for cap, es in sidebar(cache)]
    return toc, site

def mathjax(dest):
    "MathJax 3 from its npm package (installed once under _sphinx/npm), copied to dest/mathjax."
    pkg = BUILD/'npm'/'node_modules'/'mathjax'/'es5'
    if not (pkg/'tex-chtml.js').exists():
        subprocess.run(['npm', 'install', '--silent', '--no-audit', '--no-fund', '--prefix', str(BUILD/'npm'), MATHJAX], check=True)
    bundles = lambda d, names: [n for n in names if d == str(pkg) and n.endswith('.js') and n != 'tex-chtml.js']
    shutil.rmtree(dest/'mathjax', ignore_errors=True)
    shutil.copytree(pkg, dest/'mathjax', ignore=bundles)           # tex-chtml.js, its fonts and extensions

CSS = """.srclink { float: right; font-size: smaller; }
p.description { font-style: italic; font-size: 125%; opacity: 70%; margin-top: -0.5rem; }
div.cell_output .output.text_markdown h3 { border-top: 1px solid var(--color-background-border); padding-top: 0.5rem; }
"""

def sphinx_config(cfg, toc, static):
    "Sphinx's settings, from settings.ini and nbdev.yml (as Quarto's are)."
    web = yaml.safe_load((cfg.nbs_path/'nbdev.yml').read_text())['website']
    return dict(
        extensions=['myst_nb', 'sphinx.ext.mathjax'], project=web['title'], html_title=web['title'],
        author=cfg.author, copyright=cfg.copyright, release=cfg.version, language='en', root_doc='index',
        html_baseurl=web['site-url'].rstrip('/') + '/', html_theme='furo', html_static_path=[str(static.resolve())],
        html_css_files=['nbdev.css'], mathjax_path='mathjax/tex-chtml.js', html_copy_source=False,
        html_show_sourcelink=False,
        myst_enable_extensions=['dollarmath', 'amsmath', 'attrs_inline', 'attrs_block'],
        nb_execution_mode='off', nb_render_markdown_format='myst', nb_merge_streams=True, nb_ipywidgets_js={},
        suppress_warnings=['myst.header', 'misc.highlighting_failure'],
        html_theme_options={'top_of_page_buttons': [],   # (pages are renamed notebooks: no "view source" link)
                            'footer_icons': [{'name': 'GitHub', 'url': web['repo-url'], 'html': 'GitHub', 'class': ''}]})

def pandoc_id(text):
    "The id Quarto (pandoc) gives a heading: nbdev's doc links point at these (e.g. compression.html#block_mean)."
    s = re.sub(r'[^\w\s.-]', '', text.lower(), flags=re.A).strip()
    s = re.sub(r'\s+', '-', s)
    return re.sub(r'^[^a-z]+', '', s)

def add_pandoc_ids(app, doctree, docname):
    "Quarto's heading ids beside Sphinx's; after myst-nb's post-transforms, which make show_doc's headings rubrics."
    from docutils import nodes
    for n in doctree.findall(lambda n: isinstance(n, (nodes.section, nodes.rubric))):
        title = n[0] if isinstance(n, nodes.section) and n.children and isinstance(n[0], nodes.title) else n
        t = title.astext()
        for i in (pandoc_id(t), t.lower() if re.fullmatch(r'[\w.]+', t) else None):   # and nbdev's anchor for _private names
            if i and i not in n['ids']: n['ids'].append(i)

def add_toctree(toc):
    "The sidebar's groups as hidden toctrees at the end of the root page (Sphinx's navigation is its toctrees)."
    def f(app, docname, source):
        if docname != app.config.root_doc: return
        nb = json.loads(source[0])
        for cap, pages in toc:
            pages = [p for p in pages if p != docname]
            md = '```{toctree}\n:hidden:\n' + (f':caption: {cap}\n' if cap else '') + '\n' + '\n'.join(pages) + '\n```'
            nb['cells'].append({'cell_type': 'markdown', 'id': f'toc{len(nb["cells"])}', 'metadata': {}, 'source': md})
        source[0] = json.dumps(nb)
    return f

def local_links(out, site):
    "Doc links to the published site (nbdev writes absolute ones) made relative, so the built site reads offline."
    for p in out.rglob('*.html'):
        up = '../' * (len(p.relative_to(out).parts) - 1)
        t = p.read_text()
        if site in t: p.write_text(t.replace(f'href="{site}', f'href="{up}'))

def render_sphinx(cfg, cache, jobs, quiet=False, strict=False):
    from sphinx.application import Sphinx
    src, static, out = BUILD/'src', BUILD/'static', BUILD/'html'   # (myst-nb writes beside the output folder)
    toc, site = sphinx_sources(cfg, cache, src)
    static.mkdir(parents=True, exist_ok=True)
    (static/'nbdev.css').write_text(CSS)
    mathjax(static)
    shutil.rmtree(out, ignore_errors=True)
    app = Sphinx(str(src), None, str(out), str(BUILD/'doctrees'), 'html', confoverrides=sphinx_config(cfg, toc, static),
                 freshenv=True, parallel=jobs, status=None if quiet else sys.stdout, warningiserror=strict)
    app.connect('source-read', add_toctree(toc))
    app.connect('doctree-resolved', add_pandoc_ids)
    app.build()
    if app.statuscode: sys.exit(app.statuscode)
    local_links(out, site)
    (out/'.nojekyll').touch()                                       # GitHub Pages: serve _static/ as it is
    shutil.rmtree(cfg.doc_path, ignore_errors=True)
    shutil.move(str(out), str(cfg.doc_path))

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--sphinx', action='store_true', help='the Quarto-free renderer even where Quarto is installed')
    ap.add_argument('-q', '--quiet', action='store_true', help="only Sphinx's warnings and errors")
    ap.add_argument('-W', '--strict', action='store_true', help="Sphinx's warnings are errors")
    ap.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 1, help='Sphinx processes')
    a = ap.parse_args()
    if a.quiet:   # nbdev's FAQ hint on cells that import and run code (on purpose here: Triton's interpreter comes first)
        os.environ['PYTHONWARNINGS'] = 'ignore:Found cells containing imports'   # (nbdev processes in spawned workers)
        import warnings; warnings.filterwarnings('ignore', 'Found cells containing imports')
    cfg, cache = prepare()
    if shutil.which('quarto') and not a.sphinx: render_quarto(cfg, cache)
    else: render_sphinx(cfg, cache, a.jobs, a.quiet, a.strict)
    print(f'docs: {cfg.doc_path}/index.html')
