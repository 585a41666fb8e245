// Peer of the webhook delivery benchmark: COUNT signed POSTs (JSON envelope, HMAC-SHA256 signature
// header as Squawk sends them) to URL through an undici Pool with CONNECTIONS connections, at most
// CONNECTIONS in flight; prints {"deliveries_per_second": N, "failed": F}.
//   node webhook_sender.cjs URL COUNT CONNECTIONS
const { Pool } = require("undici");
const crypto = require("node:crypto");

async function main() {
    const [url, count, connections] = process.argv.slice(2);
    const total = Number(count);
    const width = Number(connections);
    const target = new URL(url);
    const pool = new Pool(target.origin, { connections: width, pipelining: 1 });
    const secret = "whsec_" + crypto.randomBytes(32).toString("base64url");
    let next = 0;
    let failed = 0;
    const started = performance.now();
    async function lane() {
        for (;;) {
            const i = next++;
            if (i >= total) return;
            const id = "evt_" + crypto.randomBytes(12).toString("hex");
            const body = JSON.stringify({ id, event: "post.published", created_at: new Date().toISOString(), data: { i } });
            const t = Math.floor(Date.now() / 1000);
            const v1 = crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
            const { statusCode, body: answer } = await pool.request({
                path: target.pathname, method: "POST", body,
                headers: { "content-type": "application/json", "x-service-event-id": id, "x-service-signature": `t=${t},v1=${v1}` },
            });
            await answer.text();
            if (statusCode < 200 || statusCode >= 300) failed++;
        }
    }
    await Promise.all(Array.from({ length: width }, lane));
    const seconds = (performance.now() - started) / 1000;
    await pool.close();
    console.log(JSON.stringify({ deliveries_per_second: total / seconds, failed }));
}

main().catch((e) => { console.error(e); process.exit(1); });
