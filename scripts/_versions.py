"""Shared by the before/after benchmark scripts: an older nsa_nb module, taken from git into .pk/, loaded beside this tree's."""
import sys, importlib.util

def load_old(name:str, path:str):
    "An older nsa_nb module file as module `nsa_nb.<name>` (e.g. 'kernels.nsa_before'), so that its relative imports resolve."
    spec = importlib.util.spec_from_file_location(f'nsa_nb.{name}', path)
    m = importlib.util.module_from_spec(spec); sys.modules[spec.name] = m; spec.loader.exec_module(m)
    return m
