#!/usr/bin/env bash
# The field's pre-run check, now `nsa_nb_check`: causality, kernel parity, selection, dtypes, decode, routing.
# Usage: bash scripts/run_gpu_causality_test.sh [--full]     (exit code 0 only when every check passes)
# (python -m, not python -c: fastcore's call_parse only reads the command line when called from a module)
set -euo pipefail
exec python3 -m nsa_nb.check "$@"
