// Drives Debian's headless Chromium through the dashboard of a running stack: sign in, create a
// key, call GET /v1/me with it, revoke it, sign out. Each page gets an axe-core check (no serious
// or critical violation), must log no error (a Content-Security-Policy refusal is one) and is
// saved as a screenshot. tests/e2e/dashboard_browser_test.cpp starts the stack and runs this.
//
//   SQUAWK_DASHBOARD_URL=http://127.0.0.1:PORT SQUAWK_DASHBOARD_EMAIL=... \
//   SQUAWK_DASHBOARD_PASSWORD=... SQUAWK_SCREENSHOT_DIR=... \
//   SQUAWK_BROWSER_MODULES=build/browser/node_modules node tests/browser/dashboard.mjs
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function setting(name) {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
}

const base = setting("SQUAWK_DASHBOARD_URL");
const email = setting("SQUAWK_DASHBOARD_EMAIL");
const password = setting("SQUAWK_DASHBOARD_PASSWORD");
const screenshots = setting("SQUAWK_SCREENSHOT_DIR");
// The packages are installed into the build folder (npm ci), not beside this file.
const require = createRequire(join(setting("SQUAWK_BROWSER_MODULES"), "resolve-from-here.cjs"));
const { chromium } = require("playwright-core");
const axe = require("axe-core");

function check(condition, message) {
    if (!condition) throw new Error(message);
}

async function callMe(key) {
    const answer = await fetch(`${base}/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
    return { status: answer.status, body: await answer.json() };
}

mkdirSync(screenshots, { recursive: true });
const profile = mkdtempSync(join(tmpdir(), "squawk-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
    viewport: { width: 1280, height: 800 },
});
const problems = [];
try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("response", (response) => {
        if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });

    // axe runs through the DevTools protocol, which the page's script-src does not govern.
    async function visited(name) {
        await page.evaluate(axe.source);
        const results = await page.evaluate(() =>
            window.axe.run(document, { resultTypes: ["violations"] }));
        for (const v of results.violations)
            if (v.impact === "serious" || v.impact === "critical")
                problems.push(`${name}: axe ${v.impact} ${v.id}: ${v.help} (${v.nodes.length} nodes)`);
        await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
        console.log(`checked ${name}: ${page.url()}`);
    }

    await page.goto(`${base}/dashboard/login`);
    await visited("login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${base}/dashboard/`);
    await visited("home");

    await page.getByRole("navigation").getByRole("link", { name: "API keys" }).click();
    await page.waitForURL(`${base}/dashboard/keys`);
    await visited("keys");

    await page.getByLabel("Test (sandbox)").check();
    await page.getByLabel("jobs:read").check();
    await page.getByLabel("Custom rate limit, requests per minute (optional)").fill("120");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.locator("#new-key").textContent()).trim();
    check(/^sqk_test_/.test(key), `the new key looks wrong: ${key}`);
    await visited("key-created");

    const me = await callMe(key);
    check(me.status === 200, `GET /v1/me with the new key answered ${me.status}`);
    check(me.body.data.key.prefix === key.slice(0, 13), "GET /v1/me named another key");

    await page.getByRole("link", { name: "Back to API keys" }).click();
    await page.waitForURL(`${base}/dashboard/keys`);
    check(!(await page.content()).includes(key), "the keys page shows the key after its showing");
    await page.setViewportSize({ width: 390, height: 844 });
    await visited("keys-phone");
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole("button", { name: `Revoke key ${key.slice(0, 13)}` }).click();
    await page.waitForURL(`${base}/dashboard/keys`);
    await visited("keys-revoked");
    const after = await callMe(key);
    check(after.status === 401, `GET /v1/me with the revoked key answered ${after.status}`);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${base}/dashboard/login`);
    await visited("signed-out");
    await page.goto(`${base}/dashboard/keys`);
    check(page.url() === `${base}/dashboard/login`, "the keys page opened after signing out");
} catch (error) {
    problems.push(error.stack ?? String(error));
} finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
}
for (const problem of problems) console.error(problem);
process.exit(problems.length === 0 ? 0 : 1);
