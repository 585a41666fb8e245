// A viewer in the browser: the posts calendar by week and by month at the day of a scheduled post,
// the post's page, and the week at a phone's width (390 px) with nothing wider than the screen.
// Settings of its own: POST_DATE (YYYY-MM-DD, UTC) and POST_TEXT, a post scheduled that day.
import { browse, setting } from "./browsing.mjs";

const date = setting("POST_DATE");
const text = setting("POST_TEXT");

await browse(async ({ page, base, visited, check, signIn }) => {
    await signIn();
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Posts" })
        .click();
    await page.waitForURL(`${base}/dashboard/posts`);
    await visited("posts-today");

    await page.getByLabel("Date (UTC)").fill(date);
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/view=week/);
    const post = page.getByRole("link", { name: new RegExp(text) });
    check(await post.count() === 1, `the week of ${date} does not show "${text}" once`);
    check((await page.locator("table.calendar caption").textContent()).includes("(UTC)"),
          "the week's caption does not say the times are UTC");
    await visited("posts-week");

    await page.getByLabel("View").selectOption("month");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/view=month/);
    check(await page.getByRole("link", { name: new RegExp(text) }).count() === 1,
          `the month of ${date} does not show "${text}" once`);
    check(await page.locator("table.calendar tbody tr").count() >= 4, "the month has no weeks");
    await visited("posts-month");

    await page.getByRole("link", { name: "Next month" }).click();
    await page.waitForURL(/view=month/);
    await visited("posts-next-month");
    await page.getByRole("link", { name: "Previous month" }).click();
    await page.waitForURL(/view=month/);

    await page.getByRole("link", { name: new RegExp(text) }).click();
    await page.waitForURL(/\/dashboard\/posts\/\d+$/);
    check((await page.locator("main").textContent()).includes(text), "the post's page lacks its text");
    check(await page.getByRole("cell", { name: "scheduled" }).count() >= 1,
          "the post's page shows no scheduled account");
    await visited("post");

    await page.getByRole("link", { name: "Back to the calendar" }).click();
    await page.waitForURL(/view=week/);
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    check(overflow <= 390, `the week is ${overflow} px wide on a 390 px screen`);
    check(await page.getByRole("link", { name: new RegExp(text) }).isVisible(),
          "the post is not visible on a phone");
    await visited("posts-phone");
    await page.setViewportSize({ width: 1280, height: 800 });
});
