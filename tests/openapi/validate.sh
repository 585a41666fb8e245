#!/usr/bin/env bash
# Validates the OpenAPI document squawk-api serves with an OpenAPI 3.1 schema validator from the npm
# registry, installed once into the build tree (never committed).
#
#   validate.sh SQUAWK_API_BINARY SCRATCH_DIR
set -euo pipefail
api=${1:?squawk-api binary}
scratch=${2:?scratch dir}
validator=@seriousme/openapi-schema-validator@2

mkdir -p "$scratch"
if [ ! -d "$scratch/node_modules/@seriousme/openapi-schema-validator" ]; then
    npm install --prefix "$scratch" --no-audit --no-fund --loglevel=error "$validator" >/dev/null
fi
"$api" --print-openapi >"$scratch/openapi.json"

cd "$scratch"
node --input-type=module - <<'JS'
import { Validator } from "@seriousme/openapi-schema-validator";
import { readFileSync } from "node:fs";
const document = JSON.parse(readFileSync("openapi.json", "utf8"));
const validator = new Validator({ strict: true });
const result = await validator.validate(document);
if (!result.valid) {
    console.error(JSON.stringify(result.errors, null, 2));
    process.exit(1);
}
if (validator.version !== "3.1") {
    console.error(`expected an OpenAPI 3.1 document, got ${validator.version}`);
    process.exit(1);
}
console.log(`valid OpenAPI ${validator.version}: ${Object.keys(document.paths).length} paths, ` +
            `${Object.keys(document.webhooks ?? {}).length} webhooks`);
JS
