# Package metadata comes from settings.ini (nbdev's single source of truth).
# No pkg_resources here: recent setuptools no longer ship it.
from configparser import ConfigParser
import setuptools

cfg = ConfigParser(delimiters=['='])
cfg.read('settings.ini', encoding='utf-8')
cfg = cfg['DEFAULT']

def _reqs(key): return cfg.get(key, '').split()

licenses = {'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License')}
statuses = ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable', '6 - Mature', '7 - Inactive']
lic = licenses[cfg['license']]
min_python = cfg['min_python']
py_versions = ['3.10', '3.11', '3.12', '3.13']

setuptools.setup(
    name=cfg['lib_name'],
    version=cfg['version'],
    description=cfg['description'],
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    author=cfg['author'], author_email=cfg['author_email'],
    url=cfg['git_url'], license=lic[0],
    keywords=cfg['keywords'].split(),
    classifiers=['Development Status :: ' + statuses[int(cfg['status'])],
                 'Intended Audience :: ' + cfg['audience'].title(),
                 'License :: ' + lic[1],
                 'Natural Language :: ' + cfg['language'].title()]
                + ['Programming Language :: Python :: ' + v for v in py_versions[py_versions.index(min_python):]],
    packages=setuptools.find_packages(include=['nsa_nb', 'nsa_nb.*']),
    package_data={'nsa_nb': ['configs/*.yaml']},   # the named run profiles: nsa_nb.config.named_config
    python_requires='>=' + min_python,
    install_requires=_reqs('requirements'),
    extras_require={'triton': _reqs('triton_requirements'),
                    'data': _reqs('data_requirements'),
                    'tb': _reqs('tb_requirements'),
                    'docs': _reqs('docs_requirements'),
                    'dev': _reqs('dev_requirements') + _reqs('triton_requirements') + _reqs('data_requirements') + _reqs('tb_requirements')},
    entry_points={'console_scripts': cfg.get('console_scripts', '').split(),
                  'nbdev': [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"]},
    zip_safe=False,
)
