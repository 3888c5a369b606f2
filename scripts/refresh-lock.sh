#!/usr/bin/env bash
# Refresh requirements.lock to the newest releases that pyproject.toml allows, then install the new
# lock in a fresh virtual environment exactly as the README does and run the README's test command
# (.ci/run). If a new release breaks something, fix the code, not the pin.
#
# uv resolves (in a throwaway environment of its own): its universal resolution writes one lock,
# with environment markers and every file's hash, that holds for every Python >= 3.11 and platform,
# and stock pip installs it, so nobody needs uv to install Conductor.
set -euo pipefail
cd "$(dirname "$0")/.."
tool="$(mktemp -d)/uv"
python3 -m venv "$tool"
"$tool/bin/pip" install --quiet uv
"$tool/bin/uv" pip compile pyproject.toml --extra test --group build --universal --generate-hashes \
    --python-version 3.11 --upgrade --quiet --output-file requirements.lock
git --no-pager diff --stat -- requirements.lock
bash .ci/run
