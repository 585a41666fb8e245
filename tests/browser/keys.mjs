// A developer in the browser: sign in, create a key, call GET /v1/me with it, revoke it, sign out.
import { browse } from "./browsing.mjs";

async function callMe(base, key) {
    const answer = await fetch(`${base}/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
    return { status: answer.status, body: await answer.json() };
}

await browse(async ({ page, base, visited, check }) => {
    await page.goto(`${base}/dashboard/login`);
    await visited("login");
    await page.getByLabel("Email").fill(process.env.SQUAWK_DASHBOARD_EMAIL);
    await page.getByLabel("Password").fill(process.env.SQUAWK_DASHBOARD_PASSWORD);
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

    const me = await callMe(base, key);
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
    const after = await callMe(base, key);
    check(after.status === 401, `GET /v1/me with the revoked key answered ${after.status}`);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${base}/dashboard/login`);
    await visited("signed-out");
    await page.goto(`${base}/dashboard/keys`);
    check(page.url() === `${base}/dashboard/login`, "the keys page opened after signing out");
});
