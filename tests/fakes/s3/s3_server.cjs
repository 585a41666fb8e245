// The S3-compatible server of the object store tests: s3rver on a loopback port of the kernel's
// choice, with one bucket, printing "port <n>" once it listens.
//
//   node s3_server.cjs DIRECTORY BUCKET
//
// s3rver 3.7.1 checks a SigV4 request's access key, date and expiry but not its signature, so
// every request here is first checked against a signature computed independently by aws4 with
// the secret of its access key (s3rver's account S3RVER / S3RVER): a mismatch is answered
// SignatureDoesNotMatch, an unsigned request or x-amz-* header AccessDenied, and an upload whose
// bytes do not match its x-amz-content-sha256 XAmzContentSHA256Mismatch, as S3 does. A
// CopyObject's source is decoded whole, as S3 does (s3rver alone keeps escapes such as %2B).
"use strict";

const crypto = require("crypto");
const fs = require("fs");
const aws4 = require("aws4");
const S3rver = require("s3rver");
const AWSAccount = require("s3rver/lib/models/account");
const S3Error = require("s3rver/lib/models/error");

const [directory, bucket] = process.argv.slice(2);
if (!directory || !bucket) {
    console.error("usage: node s3_server.cjs DIRECTORY BUCKET");
    process.exit(2);
}

// What the client says it signed: from the Authorization header or the presigned query.
function claimedSignature(req, url) {
    const auth = req.headers.authorization;
    if (auth) {
        const match =
            /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(
                auth
            );
        if (!match) throw new S3Error("AuthorizationHeaderMalformed", "not a SigV4 header");
        return { credential: match[1], signedHeaders: match[2], signature: match[3], query: false };
    }
    const q = url.searchParams;
    if (q.get("X-Amz-Algorithm") === "AWS4-HMAC-SHA256") {
        return {
            credential: q.get("X-Amz-Credential") || "",
            signedHeaders: q.get("X-Amz-SignedHeaders") || "",
            signature: q.get("X-Amz-Signature") || "",
            query: true,
        };
    }
    throw new S3Error("AccessDenied", "Anonymous requests are refused by this test server");
}

function checkSignature(ctx) {
    const req = ctx.req;
    const url = new URL(req.url, "http://fake-s3.invalid");
    const claim = claimedSignature(req, url);
    const [accessKeyId, , region, service] = claim.credential.split("/");
    const account = AWSAccount.registry.get(accessKeyId);
    if (!account) {
        throw new S3Error("InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist");
    }
    const headers = {};
    const include = {};
    for (const name of claim.signedHeaders.split(";")) {
        headers[name] = req.headers[name] === undefined ? "" : req.headers[name];
        include[name] = true;
    }
    // S3 refuses x-amz-* headers left out of a signature, such as an unsigned copy source.
    const unsigned = Object.keys(req.headers).filter((n) => n.startsWith("x-amz-") && !include[n]);
    if (!claim.query && unsigned.length) {
        throw new S3Error(
            "AccessDenied",
            "There were headers present in the request which were not signed",
            { HeadersNotSigned: unsigned.join(", ") }
        );
    }
    // The path as received, less the signature itself.
    const rawQuery = req.url.includes("?") ? req.url.slice(req.url.indexOf("?") + 1) : "";
    const kept = rawQuery
        .split("&")
        .filter((part) => part !== "" && !part.startsWith("X-Amz-Signature="));
    const rawPath = req.url.split("?")[0];
    const signer = new aws4.RequestSigner(
        {
            method: req.method,
            path: kept.length ? rawPath + "?" + kept.join("&") : rawPath,
            headers,
            service,
            region,
            signQuery: claim.query,
            extraHeadersToInclude: include,
        },
        { accessKeyId, secretAccessKey: account.accessKeys.get(accessKeyId) }
    );
    // Parsing first takes the signing time from the request: signature() on its own would take
    // the clock's time before reading the request's.
    signer.prepareRequest();
    if (signer.signature() !== claim.signature) {
        throw new S3Error(
            "SignatureDoesNotMatch",
            "The request signature we calculated does not match the signature you provided. " +
                "Check your key and signing method.",
            { AWSAccessKeyId: accessKeyId, CanonicalRequest: signer.canonicalString() }
        );
    }
}

async function checkPayload(ctx) {
    const declared = ctx.req.headers["x-amz-content-sha256"];
    if (ctx.method !== "PUT" || !/^[0-9a-f]{64}$/.test(declared || "") || ctx.status >= 300) return;
    if (!ctx.params || !ctx.params.key) return;
    // A copy's declared hash is that of its empty body, not of the object it copies.
    if (ctx.req.headers["x-amz-copy-source"] !== undefined) return;
    const file = ctx.store.getResourcePath(ctx.params.bucket, ctx.params.key, "object");
    const hash = crypto.createHash("sha256");
    await new Promise((resolve, reject) =>
        fs.createReadStream(file).on("data", (c) => hash.update(c)).on("end", resolve).on("error", reject)
    );
    if (hash.digest("hex") !== declared) {
        await ctx.store.deleteObject(ctx.params.bucket, ctx.params.key);
        const error = new S3Error(
            "XAmzContentSHA256Mismatch",
            "The provided 'x-amz-content-sha256' header does not match what was computed."
        );
        error.status = 400;
        error.expose = true;
        throw error;
    }
}

const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
});
server.middleware.unshift(async (ctx, next) => {
    checkSignature(ctx);
    const copySource = ctx.req.headers["x-amz-copy-source"];
    if (copySource !== undefined) {
        // s3rver applies decodeURI, which keeps reserved characters escaped: hand it a form that
        // decodeURI turns into the fully decoded source.
        try {
            ctx.req.headers["x-amz-copy-source"] = encodeURI(decodeURIComponent(copySource));
        } catch (error) {
            throw new S3Error("InvalidArgument", "Invalid copy source encoding");
        }
    }
    await next();
    await checkPayload(ctx);
});
server.run().then(
    (address) => console.log(`port ${address.port}`),
    (error) => {
        console.error(error);
        process.exit(1);
    }
);
process.on("SIGTERM", () => server.close(() => process.exit(0)));
