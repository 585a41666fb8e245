// An operator in the browser: the operations page refreshes its figures in place (the "updated
// at" line changes, the page is not reloaded), then a dead-lettered job (JOB_ID) is retried.
import { browse, setting } from "./browsing.mjs";

const jobId = setting("JOB_ID");

await browse(async ({ page, base, visited, check, signIn }) => {
    await signIn();
    await visited("home-operator");

    await page.getByRole("navigation").getByRole("link", { name: "Operations" }).click();
    await page.waitForURL(`${base}/dashboard/ops`);
    await visited("ops");
    const first = await page.locator("#ops-generated").textContent();
    // Survives only if the page is never reloaded.
    await page.evaluate(() => { window.squawkSamePage = true; });
    await page.waitForFunction(
        (before) => document.getElementById("ops-generated").textContent !== before, first,
        { timeout: 15000 });
    check(await page.evaluate(() => window.squawkSamePage === true),
          "the page was reloaded instead of refreshed in place");
    check((await page.locator("[data-stat='dead_letters']").textContent()) === "1",
          "the operations page does not count the dead-lettered job");
    check(!(await page.locator("#ops-throughput").textContent()).includes("measuring"),
          "the live refresh did not measure jobs finished per second");
    for (const count of ["added", "finished"]) {
        const rate = await page.locator(`[data-rate='queues.generate.${count}']`).textContent();
        check(/^\d+\.\d$/.test(rate), `the live refresh did not measure ${count} per second: ${rate}`);
    }
    check((await page.getByRole("columnheader", { name: "In /s" }).count()) === 1 &&
          (await page.getByRole("columnheader", { name: "Out /s" }).count()) === 1,
          "the queues table has no In /s and Out /s columns");
    await visited("ops-refreshed");

    await page.getByRole("link", { name: "Dead-lettered jobs" }).click();
    await page.waitForURL(`${base}/dashboard/ops/dead-letters?kind=jobs`);
    await visited("dead-letters");
    await page.getByRole("button", { name: `Retry ${jobId}` }).click();
    await page.getByText(`Queued ${jobId} again.`).waitFor();
    check(!(await page.getByRole("button", { name: `Retry ${jobId}` }).count()),
          "the retried job is still listed as a dead letter");
    await visited("dead-letter-retried");
});
