// An owner in the browser: invite a developer, whose own browser opens the link, chooses a
// password and lands signed in; then the owner changes their password and signs in with it.
import { createRequire } from "node:module";
import { join } from "node:path";
import { browse, setting } from "./browsing.mjs";

const require = createRequire(join(setting("SQUAWK_BROWSER_MODULES"), "resolve-from-here.cjs"));
const { chromium } = require("playwright-core");

// The invitee's browser: a separate Chromium with no cookie of the owner's.
async function accept(base, link, email, password, check) {
    const browser = await chromium.launch({
        executablePath: "/usr/bin/chromium",
        headless: true,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
    });
    try {
        const page = await (await browser.newContext()).newPage();
        const problems = [];
        page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
        page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
        // The link names the API's public address; this stack listens elsewhere.
        await page.goto(base + new URL(link).pathname);
        check((await page.content()).includes(email), "the invitation page does not name the email");
        await page.getByLabel("Choose a password (12 characters or more)").fill(password);
        await page.getByLabel("The password again").fill(password);
        await page.getByRole("button", { name: "Join" }).click();
        await page.waitForURL(`${base}/dashboard/`);
        check((await page.content()).includes(`${email} · developer`),
            "the invitee is not signed in as a developer");
        check(problems.length === 0, `the invitee's browser met: ${problems.join(", ")}`);
    } finally {
        await browser.close();
    }
}

await browse(async ({ page, base, visited, check, signIn }) => {
    const email = setting("SQUAWK_DASHBOARD_EMAIL");
    const invitee = setting("INVITEE_EMAIL");
    const newPassword = setting("NEW_PASSWORD");
    await signIn();
    await page.getByRole("navigation").getByRole("link", { name: "Team" }).click();
    await page.waitForURL(`${base}/dashboard/team`);
    await visited("team");

    await page.getByLabel("Their email").fill(invitee);
    await page.getByLabel("Developer").check();
    await page.getByRole("button", { name: "Create invitation link" }).click();
    const link = (await page.locator("#invitation-link").textContent()).trim();
    check(/\/dashboard\/invitations\/[A-Za-z0-9_-]{40,}$/.test(link), `odd link: ${link}`);
    await visited("invitation-created");
    await accept(base, link, invitee, "the invitee's own passphrase", check);

    await page.getByRole("link", { name: "Back to the team" }).click();
    await page.waitForURL(`${base}/dashboard/team`);
    check((await page.content()).includes(invitee), "the team page does not list the invitee");
    check(!(await page.content()).includes(link), "the team page shows the link again");
    await visited("team-joined");

    await page.getByRole("navigation").getByRole("link", { name: "Account" }).click();
    await page.waitForURL(`${base}/dashboard/account`);
    await visited("account");
    await page.getByLabel("Current password").fill(setting("SQUAWK_DASHBOARD_PASSWORD"));
    await page.getByLabel("New password (12 characters or more)").fill(newPassword);
    await page.getByLabel("New password again").fill(newPassword);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.waitForURL(`${base}/dashboard/account?done=password`);
    check((await page.content()).includes("Your password was changed."), "no confirmation shown");
    await visited("account-password-changed");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${base}/dashboard/login`);
    await signIn(email, newPassword);
    await visited("signed-in-with-new-password");
});
