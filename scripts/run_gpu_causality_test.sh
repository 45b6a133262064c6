#!/usr/bin/env bash
# The field's pre-run check, now `nsa_nb_check`: causality, kernel parity, selection, dtypes, decode, routing.
# Usage: bash scripts/run_gpu_causality_test.sh [--full]     (exit code 0 only when every check passes)
set -euo pipefail
exec python3 -c "from nsa_nb.check import nsa_nb_check; nsa_nb_check()" "$@"
