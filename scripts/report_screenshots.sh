#!/usr/bin/env bash
# Regenerates the screenshots in docs/img/ that docs/reports.md shows: a check report of testdata/ and a run
# report of one AvgPool layer with mismatches planted in two channels, rendered by headless Chromium.
#
#   scripts/report_screenshots.sh            from anywhere (builds irlint in build/ first if needed)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
IRLINT=${IRLINT:-build/irlint}
[ -x "$IRLINT" ] || { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j2 --target irlint >/dev/null; }
IRLINT=$(realpath "$IRLINT")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shoot() {  # PAGE PNG HEIGHT
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$work/profile" \
    --window-size=1280,"$3" --screenshot="$2" "file://$1" 2>/dev/null
}

"$IRLINT" check testdata/spec testdata/broken --format html -o "$work/check.html" || true
shoot "$work/check.html" docs/img/check-report.png 1400

cp testdata/valid/avgpool1_ceil.xml "$work/model.xml"
(
  cd "$work"
  /usr/bin/python3 -c "
import numpy as np
np.save('x.npy', np.random.default_rng(3).random((1, 64, 112, 112), dtype=np.float32))"
  "$IRLINT" run model.xml --layer 1 --input x.npy --save y.npy >/dev/null
  /usr/bin/python3 -c "
import numpy as np
y = np.load('y.npy')
y[0, 5, 10:20, 30:40] += 0.5
y[0, 5, 14, 33] += 3.0
y[0, 12, :, 0] += 0.02
np.save('expected.npy', y)"
  "$IRLINT" run model.xml --layer 1 --input x.npy --expect expected.npy --report run.html >/dev/null || true
)
shoot "$work/run.html" docs/img/run-report.png 1500
ls -l docs/img/check-report.png docs/img/run-report.png
