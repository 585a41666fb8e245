// Peer of the add-to-start latency benchmark: RATE jobs per second for SECONDS seconds, each added
// with queue.add on an open-loop schedule; a worker with CONCURRENCY records when each starts.
// Prints {"p50_ms": N, "p99_ms": N} of start minus add.
//   node bullmq_latency.cjs HOST PORT RATE SECONDS CONCURRENCY PREFIX
const { Queue, Worker } = require("bullmq");

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function percentile(values, p) {
    const sorted = [...values].sort((a, b) => a - b);
    const rank = Math.ceil((p / 100) * sorted.length);
    return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

async function main() {
    const [host, port, rate, seconds, concurrency, prefix] = process.argv.slice(2);
    const total = Number(rate) * Number(seconds);
    const connection = { host, port: Number(port) };
    const queue = new Queue("latency", { connection, prefix });
    const latencies = [];
    let worker;
    const finished = new Promise((resolve) => {
        worker = new Worker("latency", async (job) => {
            latencies.push(now() - job.data.added);
            if (latencies.length === total) resolve();
            return null;
        }, { connection, prefix, concurrency: Number(concurrency) });
    });
    await worker.waitUntilReady();
    const start = now() + 200;
    for (let k = 0; k < total; ++k) {
        await sleep(start + (k * 1000) / Number(rate) - now());
        queue.add("noop", { added: now() });
    }
    await finished;
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    console.log(JSON.stringify({ p50_ms: percentile(latencies, 50), p99_ms: percentile(latencies, 99) }));
}

main().catch((error) => {
    console.error(error);
    process.exit(1);
});
