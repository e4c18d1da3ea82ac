#!/usr/bin/env bash
# Runs a command as on a new machine that has none of the system programs the tests may use:
# in a private mount namespace whose /usr/bin (an overlay of the real one) lacks ffmpeg, ffprobe,
# chromium, the SoftHSM tools (softhsm2-util, pkcs11-tool) and Chromaprint's fpcalc. Nothing
# outside the namespace changes. Needs root (or CAP_SYS_ADMIN) and overlayfs.
#
#   bash scripts/without-system-tools.sh npm test
#   bash scripts/without-system-tools.sh npx node --conditions=songmint-source --import tsx \
#     --import ./test/support/bounded-hooks.ts --test --test-force-exit test/inference/audio.test.ts
#
# Expected: the tests that compare against ffmpeg use the static ffmpeg/ffprobe of the
# devDependencies @ffmpeg-installer/linux-x64 and @ffprobe-installer/linux-x64
# (test/support/reference-tools.ts); the browser walk, the SoftHSM tests and the fpcalc comparison
# skip, naming why.
set -euo pipefail
if [ "$#" -eq 0 ]; then
  echo "usage: $0 <command> [args...]" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/upper" "$work/work"
unshare --mount --propagation private -- bash -c '
  set -euo pipefail
  mount -t overlay overlay -o "lowerdir=/usr/bin,upperdir=$1/upper,workdir=$1/work" /usr/bin
  rm -f /usr/bin/ffmpeg /usr/bin/ffprobe /usr/bin/chromium /usr/bin/softhsm2-util /usr/bin/pkcs11-tool /usr/bin/fpcalc
  for tool in ffmpeg ffprobe chromium softhsm2-util pkcs11-tool fpcalc; do
    if command -v "$tool" >/dev/null 2>&1; then echo "$tool is still on PATH: $(command -v "$tool")" >&2; exit 1; fi
  done
  shift
  exec "$@"
' bash "$work" "$@"
