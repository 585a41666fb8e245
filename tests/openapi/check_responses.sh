#!/usr/bin/env bash
# Checks the answers the end-to-end tests recorded (SQUAWK_RESPONSE_LOG) against the OpenAPI
# document squawk-api serves, with a JSON Schema 2020-12 validator from the npm registry installed
# once into the build tree (never committed).
#
#   check_responses.sh SQUAWK_API_BINARY RECORDS_DIR SCRATCH_DIR
set -euo pipefail
api=${1:?squawk-api binary}
records=${2:?records dir}
scratch=${3:?scratch dir}
here=$(cd "$(dirname "$0")" && pwd)

mkdir -p "$scratch"
if [ ! -d "$scratch/node_modules/ajv-formats" ]; then
    npm install --prefix "$scratch" --no-audit --no-fund --loglevel=error ajv@8 ajv-formats@3 \
        >/dev/null
fi
"$api" --print-openapi >"$scratch/openapi.json"
cp "$here/check_responses.mjs" "$scratch/"
node "$scratch/check_responses.mjs" "$scratch/openapi.json" "$records"
