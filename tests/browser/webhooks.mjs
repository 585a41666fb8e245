// A developer in the browser: add a webhook, see its secret once, send a test event and see the
// receiver's answer, then replay a dead letter from the delivery log and watch the webhook worker
// deliver it. Settings of its own: RECEIVER_URL (a receiver answering 200), DEAD_DELIVERY (the id
// of a dead-lettered delivery of the workspace).
import { browse, setting } from "./browsing.mjs";

const receiverUrl = setting("RECEIVER_URL");
const deadDelivery = setting("DEAD_DELIVERY");

await browse(async ({ page, base, visited, check, signIn }) => {
    await signIn();
    await page.getByRole("navigation").getByRole("link", { name: "Webhooks" }).click();
    await page.waitForURL(`${base}/dashboard/webhooks`);
    await visited("webhooks");

    await page.getByLabel("URL that receives the events").fill(receiverUrl);
    await page.getByLabel("webhook.test", { exact: true }).check();
    await page.getByLabel("post.published", { exact: true }).check();
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secret = (await page.locator("#new-secret").textContent()).trim();
    check(/^whsec_/.test(secret), `the new secret looks wrong: ${secret}`);
    await visited("webhook-created");

    await page.getByRole("link", { name: "Go to the webhook" }).click();
    await page.waitForURL(/\/dashboard\/webhooks\/wh_[0-9a-f]+$/);
    check(!(await page.content()).includes(secret), "the webhook page shows the secret again");
    await visited("webhook");

    await page.getByRole("button", { name: "Send a test event" }).click();
    await page.locator("#test-outcome").waitFor();
    const answer = (await page.locator("#test-status").textContent()).trim();
    check(answer === "200", `the test delivery's answer was ${answer}`);
    check((await page.locator("#test-heading").textContent()).includes("delivered"),
          "the test delivery is not shown as delivered");
    await visited("webhook-tested");

    await page.getByRole("navigation").getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("link", { name: "Delivery log" }).click();
    await page.waitForURL(`${base}/dashboard/webhooks/deliveries`);
    check((await page.content()).includes("webhook.test"), "the log does not show the test");
    await page.getByLabel("Status", { exact: true }).selectOption("dead_letter");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/status=dead_letter/);
    await visited("deliveries-dead-letters");

    await page.getByRole("button", { name: `Replay delivery ${deadDelivery}` }).click();
    await page.getByRole("status").waitFor();
    check((await page.getByRole("status").textContent()).includes("will be sent again"),
          "the replay was not confirmed");
    await visited("delivery-replayed");

    // The webhook worker sends it: the delivery's own page shows it delivered.
    let status = "";
    for (let i = 0; i < 30 && status !== "delivered"; ++i) {
        await page.goto(`${base}/dashboard/webhooks/deliveries/${deadDelivery}`);
        status = (await page.locator(`#delivery-${deadDelivery} .delivery-status`).textContent())
            .trim();
        if (status !== "delivered") await page.waitForTimeout(500);
    }
    check(status === "delivered", `the replayed delivery is ${status}`);
    await visited("delivery-delivered");
    await page.setViewportSize({ width: 390, height: 844 });
    await visited("delivery-phone");
});
