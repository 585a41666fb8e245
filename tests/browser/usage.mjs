// A developer in the browser: the usage page with its charts, another period, then a profile
// created and paused. PROFILE_NAME names the profile to create.
import { browse, setting } from "./browsing.mjs";

const profileName = setting("PROFILE_NAME");

await browse(async ({ page, base, visited, check, signIn }) => {
    await signIn();
    await page.getByRole("navigation", { name: "Dashboard" })
        .getByRole("link", { name: "Usage & billing" }).click();
    await page.waitForURL(`${base}/dashboard/usage`);
    for (const id of ["requests-chart", "credits-chart"]) {
        const chart = page.locator(`svg#${id}[role="img"]`);
        check(await chart.count() === 1, `the usage page has no chart #${id}`);
        const label = await chart.getAttribute("aria-label");
        check(/in total/.test(label ?? ""), `chart #${id} is labelled "${label}"`);
    }
    const chosen = page.getByRole("navigation", { name: "Period" }).locator("[aria-current=page]");
    check((await chosen.textContent()) === "30 days", "the usage page did not open on 30 days");
    await visited("usage");

    await page.getByRole("navigation", { name: "Period" })
        .getByRole("link", { name: "7 days" }).click();
    await page.waitForURL(`${base}/dashboard/usage?period=7d`);
    check((await chosen.textContent()) === "7 days", "choosing 7 days did not mark it current");
    check(await page.locator("#usage-days tbody tr").count() === 8,
        "the 7 days table does not list the 8 UTC days the period touches");
    await visited("usage-7d");

    await page.getByRole("navigation", { name: "Dashboard" })
        .getByRole("link", { name: "Profiles" }).click();
    await page.waitForURL(`${base}/dashboard/profiles`);
    await visited("profiles");
    await page.getByLabel("Name", { exact: true }).fill(profileName);
    await page.getByLabel("External id, your own reference (optional)").fill("browser-1");
    await page.getByRole("button", { name: "Create profile" }).click();
    await page.waitForURL(`${base}/dashboard/profiles`);
    const row = page.locator("#profiles tbody tr", { hasText: profileName });
    check((await row.locator("td").nth(4).textContent()) === "active",
        "the new profile is not listed as active");
    await visited("profile-created");

    await page.getByRole("button", { name: `Pause profile ${profileName}` }).click();
    await page.waitForURL(`${base}/dashboard/profiles`);
    check((await row.locator("td").nth(4).textContent()) === "paused",
        "the profile is not listed as paused");
    check(await page.getByRole("button", { name: `Resume profile ${profileName}` }).count() === 1,
        "the paused profile offers no resume button");
    await visited("profile-paused");
});
