// Checks every answer the end-to-end tests received against the OpenAPI document: the operation
// (matched by method and path template) must list the status, and a JSON body must match the
// schema of that status. Run by check_responses.sh with the recorded answers and the document.
//
//   node check_responses.mjs OPENAPI_JSON RECORDS_DIR
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const [documentPath, recordsDir] = process.argv.slice(2);
const document = JSON.parse(readFileSync(documentPath, "utf8"));
const basePath = new URL(document.servers?.[0]?.url ?? "/", "http://x").pathname.replace(/\/$/, "");

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
ajv.addSchema(document, "openapi.json");

const pointer = (parts) =>
    parts.map((p) => String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

// Path templates with their segments; literal segments rank above parameters when both match.
const templates = Object.keys(document.paths).map((template) => ({
    template,
    segments: template.split("/").slice(1),
}));

function operationOf(method, rawPath) {
    let path = rawPath.split("?")[0];
    if (basePath && (path === basePath || path.startsWith(basePath + "/")))
        path = path.slice(basePath.length) || "/";
    const segments = path.split("/").slice(1);
    let best = null;
    for (const t of templates) {
        if (t.segments.length !== segments.length) continue;
        let literals = 0;
        const matches = t.segments.every((s, i) => {
            if (s.startsWith("{") && s.endsWith("}")) return segments[i] !== "";
            literals += 1;
            return s === decodeURIComponent(segments[i]);
        });
        if (matches && (!best || literals > best.literals)) best = { ...t, literals };
    }
    if (!best) return null;
    const item = document.paths[best.template];
    const verb = method.toLowerCase();
    return item[verb] ? { template: best.template, verb, operation: item[verb] } : null;
}

// The response object for `status` and where it sits, following a response $ref.
function responseOf(found, status) {
    const responses = found.operation.responses ?? {};
    const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => k in responses);
    if (!key) return null;
    let location = ["#", "paths", found.template, found.verb, "responses", key];
    let response = responses[key];
    while (response.$ref) {
        const parts = response.$ref.slice(2).split("/");
        location = ["#", ...parts];
        response = parts.reduce((node, part) => node[part], document);
    }
    return { response, location };
}

const validators = new Map();
function validatorFor(location) {
    const ref = "openapi.json" + pointer([...location, "content", "application/json", "schema"]);
    if (!validators.has(ref)) validators.set(ref, ajv.compile({ $ref: ref }));
    return validators.get(ref);
}

const failures = new Map();  // one line per operation, status and problem, with a count
let checked = 0;
let skipped = 0;
function fail(record, problem) {
    const line = `${record.method} ${record.path.split("?")[0]} -> ${record.status}: ${problem}`;
    failures.set(line, (failures.get(line) ?? 0) + 1);
}

for (const file of readdirSync(recordsDir).filter((f) => f.endsWith(".jsonl"))) {
    for (const text of readFileSync(join(recordsDir, file), "utf8").split("\n")) {
        if (!text) continue;
        const record = JSON.parse(text);
        const found = operationOf(record.method, record.path);
        // Unknown paths and methods answer 404 and 405 from the router, outside any operation.
        if (!found) {
            skipped += 1;
            continue;
        }
        checked += 1;
        const documented = responseOf(found, record.status);
        if (!documented) {
            fail(record, `status not documented for ${found.verb.toUpperCase()} ${found.template}`);
            continue;
        }
        const content = documented.response.content ?? {};
        if (!("application/json" in content)) continue;
        if (!(record.content_type ?? "").startsWith("application/json")) {
            fail(record, `documented as JSON, answered ${record.content_type || "without a type"}`);
            continue;
        }
        let body;
        try {
            body = JSON.parse(record.body);
        } catch {
            fail(record, "the body is not JSON");
            continue;
        }
        const validate = validatorFor(documented.location);
        if (!validate(body)) {
            const e = validate.errors[0];
            fail(record, `${e.instancePath || "/"} ${e.message} (${e.schemaPath})`);
        }
    }
}

for (const [line, count] of failures) console.error(count > 1 ? `${line} (x${count})` : line);
console.log(`${checked} answers checked against the document, ${failures.size} mismatches, ` +
            `${skipped} outside any operation`);
if (checked === 0) {
    console.error("no recorded answers: did the end-to-end tests run?");
    process.exit(1);
}
process.exit(failures.size === 0 ? 0 : 1);
