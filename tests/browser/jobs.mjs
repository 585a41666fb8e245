// A developer in the browser: a job submitted through the API (no worker runs, so it stays
// queued) found on the jobs page, filtered by status, opened and cancelled; the API then reports
// it cancelled; the request log lists the submission.
import { browse, setting } from "./browsing.mjs";

async function api(base, method, path) {
    const answer = await fetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${setting("SQUAWK_API_KEY")}`,
                   "Content-Type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
    });
    return {
        status: answer.status,
        body: await answer.json(),
        requestId: answer.headers.get("x-request-id"),
    };
}

await browse(async ({ page, base, visited, check, signIn }) => {
    const submitted = await api(base, "POST", "/v1/jobs/ping");
    check(submitted.status === 202, `POST /v1/jobs/ping answered ${submitted.status}`);
    const jobId = submitted.body.data.job_id;

    await signIn();
    await page.getByRole("navigation").getByRole("link", { name: "Jobs" }).click();
    await page.waitForURL(`${base}/dashboard/jobs`);
    await visited("jobs");

    await page.getByLabel("Status").selectOption("queued");
    await page.getByRole("button", { name: "Filter" }).click();
    // The form sends every filter, the empty ones too.
    await page.waitForURL((url) => url.pathname === "/dashboard/jobs" &&
        url.searchParams.get("status") === "queued");
    await visited("jobs-queued");

    await page.getByRole("link", { name: jobId }).click();
    await page.waitForURL(`${base}/dashboard/jobs/${jobId}`);
    check((await page.locator("#job-status").textContent()) === "queued", "the job is not queued");
    await visited("job-queued");

    await page.getByRole("button", { name: "Cancel job" }).click();
    await page.waitForURL(`${base}/dashboard/jobs/${jobId}`);
    const shown = await page.locator("#job-status").textContent();
    check(shown === "cancelled", `the job page shows ${shown} after cancelling`);
    check(await page.getByRole("button", { name: "Cancel job" }).count() === 0,
          "the cancelled job still offers Cancel");
    await visited("job-cancelled");
    const polled = await api(base, "GET", `/v1/jobs/${jobId}`);
    check(polled.body.data.status === "cancelled", `the API reports ${polled.body.data.status}`);

    await page.getByRole("navigation").getByRole("link", { name: "Request log" }).click();
    await page.waitForURL(`${base}/dashboard/logs`);
    // The log is written in the background, in batches.
    const listed = async () => (await page.content()).includes(submitted.requestId);
    for (let tries = 0; tries < 50 && !(await listed()); ++tries) {
        await page.waitForTimeout(200);
        await page.reload();
    }
    check(await listed(), "the request log does not list the submission");
    await page.setViewportSize({ width: 390, height: 844 });
    await visited("logs-phone");
});
