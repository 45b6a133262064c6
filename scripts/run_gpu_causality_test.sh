#!/usr/bin/env bash
# A wrapper for `nsa_nb_check`, under the name NSA users know for the pre-run GPU check: causality, kernel parity, selection, dtypes,
# decode, routing, as a pass/fail table. The quick list takes a few minutes on one H100; --full adds the long parity
# sweeps and 64k tokens through the 125M model.
# Usage: bash scripts/run_gpu_causality_test.sh [--full]     (exit code 0 only when every check passes)
# The console script where it is installed (its --help names it); else the module (python -m, not python -c: fastcore's
# call_parse only reads the command line when called from a module)
set -euo pipefail
if command -v nsa_nb_check > /dev/null; then exec nsa_nb_check "$@"; fi
exec python3 -m nsa_nb.check "$@"
