// Peer of the job throughput benchmark: COUNT no-op jobs added with addBulk, then processed by one
// BullMQ worker with the given concurrency; prints {"jobs_per_second": N} timed from the first
// job started to the last completed, and the CPU that node and Redis spent per job (µs) from the
// worker's start to the last completion.
//   node bullmq_throughput.cjs HOST PORT COUNT CONCURRENCY PREFIX
const { Queue, Worker } = require("bullmq");
const IORedis = require("ioredis");

async function main() {
    const [host, port, count, concurrency, prefix] = process.argv.slice(2);
    const total = Number(count);
    const connection = { host, port: Number(port) };
    const queue = new Queue("bench", { connection, prefix });
    for (let added = 0; added < total; added += 1000) {
        const size = Math.min(1000, total - added);
        await queue.addBulk(Array.from({ length: size }, (_, i) => ({ name: "noop", data: { i: added + i } })));
    }
    const probe = new IORedis(connection);
    const redisCpuSeconds = async () => {
        const info = await probe.info("cpu");
        const field = (name) => Number(new RegExp(name + ":([0-9.]+)").exec(info)[1]);
        return field("used_cpu_sys") + field("used_cpu_user");
    };
    const redisBefore = await redisCpuSeconds();
    const nodeBefore = process.cpuUsage();
    let first = 0;
    let done = 0;
    let worker;
    const last = await new Promise((resolve) => {
        worker = new Worker("bench", async () => {
            if (!first) first = performance.now();
            return null;
        }, { connection, prefix, concurrency: Number(concurrency) });
        worker.on("completed", () => {
            if (++done === total) resolve(performance.now());
        });
    });
    const nodeUsed = process.cpuUsage(nodeBefore);
    const redisUsed = (await redisCpuSeconds()) - redisBefore;
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    probe.disconnect();
    console.log(JSON.stringify({
        jobs_per_second: total / ((last - first) / 1000),
        node_cpu_us_per_job: (nodeUsed.user + nodeUsed.system) / total,
        redis_cpu_us_per_job: (redisUsed * 1e6) / total,
    }));
}

main().catch((error) => {
    console.error(error);
    process.exit(1);
});
