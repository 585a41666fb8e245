// What every browser test of the dashboard shares: Debian's headless Chromium on a throwaway
// profile, a check of each visited page (axe-core finds no serious or critical violation, a
// screenshot is saved) and the rule that no page logs an error (a Content-Security-Policy refusal
// is one) or answers 400 and above unless the script expects it. A script is one flow:
//
//   import { browse } from "./browsing.mjs";
//   await browse(async ({ page, base, visited, check, signIn, expectStatus }) => { ... });
//
// Settings from tests/e2e/dashboard_browsing.hpp (run_browser_script): SQUAWK_DASHBOARD_URL,
// SQUAWK_DASHBOARD_EMAIL, SQUAWK_DASHBOARD_PASSWORD, SQUAWK_SCREENSHOT_DIR and
// SQUAWK_BROWSER_MODULES (npm ci puts playwright-core and axe-core in the build folder).
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function setting(name) {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
}

export function check(condition, message) {
    if (!condition) throw new Error(message);
}

const require = createRequire(join(setting("SQUAWK_BROWSER_MODULES"), "resolve-from-here.cjs"));
const { chromium } = require("playwright-core");
const axe = require("axe-core");

export async function browse(flow) {
    const base = setting("SQUAWK_DASHBOARD_URL");
    const screenshots = setting("SQUAWK_SCREENSHOT_DIR");
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
    const expected = new Set();
    try {
        const page = context.pages()[0] ?? (await context.newPage());
        page.on("console", (message) => {
            if (message.type() === "error") problems.push(`console: ${message.text()}`);
        });
        page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
        page.on("response", (response) => {
            const status = response.status();
            if (status >= 400 && !expected.has(status)) problems.push(`${status} ${response.url()}`);
        });

        // axe runs through the DevTools protocol, which the page's script-src does not govern.
        async function visited(name) {
            await page.evaluate(axe.source);
            const results = await page.evaluate(() =>
                window.axe.run(document, { resultTypes: ["violations"] }));
            for (const v of results.violations)
                if (v.impact === "serious" || v.impact === "critical")
                    problems.push(
                        `${name}: axe ${v.impact} ${v.id}: ${v.help} (${v.nodes.length} nodes)`);
            await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
            console.log(`checked ${name}: ${page.url()}`);
        }

        async function signIn(email = setting("SQUAWK_DASHBOARD_EMAIL"),
                              password = setting("SQUAWK_DASHBOARD_PASSWORD")) {
            await page.goto(`${base}/dashboard/login`);
            await page.getByLabel("Email").fill(email);
            await page.getByLabel("Password").fill(password);
            await page.getByRole("button", { name: "Sign in" }).click();
            await page.waitForURL(`${base}/dashboard/`);
        }

        // A status the flow provokes on purpose (a refused form) is not a problem.
        function expectStatus(status) {
            expected.add(status);
        }

        await flow({ page, base, visited, check, signIn, expectStatus });
    } catch (error) {
        problems.push(error.stack ?? String(error));
    } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
    }
    for (const problem of problems) console.error(problem);
    process.exit(problems.length === 0 ? 0 : 1);
}
