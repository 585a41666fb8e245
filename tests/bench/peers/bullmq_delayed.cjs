// Peer of the scheduling-precision benchmark: TOTAL delayed jobs all due in the same second,
// added with queue.add({delay}) well before it; a worker with CONCURRENCY records when each
// starts. Prints {"p50_ms", "p99_ms", "max_ms"} of start minus the job's due time.
//   node bullmq_delayed.cjs HOST PORT TOTAL LEAD_MS CONCURRENCY PREFIX
const { Queue, Worker } = require("bullmq");

const now = () => performance.timeOrigin + performance.now();

function percentile(values, p) {
    const sorted = [...values].sort((a, b) => a - b);
    const rank = Math.ceil((p / 100) * sorted.length);
    return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

async function main() {
    const [host, port, total, leadMs, concurrency, prefix] = process.argv.slice(2);
    const connection = { host, port: Number(port) };
    const queue = new Queue("delayed", { connection, prefix });
    const lateness = [];
    let worker;
    const finished = new Promise((resolve) => {
        worker = new Worker("delayed", async (job) => {
            lateness.push(now() - job.data.due);
            if (lateness.length === Number(total)) resolve();
            return null;
        }, { connection, prefix, concurrency: Number(concurrency) });
    });
    await worker.waitUntilReady();
    // Every job due inside one second, starting LEAD_MS from now.
    const second = Math.ceil((now() + Number(leadMs)) / 1000) * 1000;
    const adds = [];
    for (let k = 0; k < Number(total); ++k) {
        const due = second + Math.floor((k * 1000) / Number(total));
        adds.push(queue.add("publish", { due }, { delay: Math.max(0, due - Date.now()) }));
    }
    await Promise.all(adds);
    await finished;
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    console.log(JSON.stringify({
        p50_ms: percentile(lateness, 50),
        p99_ms: percentile(lateness, 99),
        max_ms: Math.max(...lateness),
    }));
}

main().catch((error) => {
    console.error(error);
    process.exit(1);
});
