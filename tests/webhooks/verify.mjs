// Cross-checks RechargeDesk webhooks with the Standard Webhooks reference library (npm
// `standardwebhooks`). Usage: node verify.mjs PATH/TO/webhook_sign_sample
// Exit 0: all checks pass; 1: a check failed; 77: skipped (dependencies not installed).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
if (!existsSync(join(here, "node_modules", "standardwebhooks"))) {
    console.log(`SKIPPED: ${join(here, "node_modules")} has no standardwebhooks; ` +
        "run packaging/install-deps.sh (or npm ci in tests/webhooks)");
    process.exit(77);
}
const require = createRequire(import.meta.url);
const { Webhook, WebhookVerificationError } = require("standardwebhooks");

const tool = process.argv[2];
if (!tool) {
    console.error("usage: node verify.mjs PATH/TO/webhook_sign_sample");
    process.exit(2);
}
const sample = JSON.parse(execFileSync(tool, { encoding: "utf8", env: { ...process.env, QT_QPA_PLATFORM: "offscreen" } }));

let failures = 0;
let checks = 0;
function check(condition, message) {
    checks += 1;
    if (!condition) {
        failures += 1;
        console.error(`FAIL: ${message}`);
    }
}
function rejects(fn) {
    try {
        fn();
        return false;
    } catch (e) {
        return e instanceof WebhookVerificationError;
    }
}

const events = new Set();
check(sample.deliveries.length === 3, "three deliveries captured");
for (const [i, d] of sample.deliveries.entries()) {
    const { headers, body, secrets } = d;
    check(headers["content-type"] === "application/json", `#${i} content-type`);
    check(/^RechargeDesk-Webhooks\/\S+$/.test(headers["user-agent"]), `#${i} user-agent ${headers["user-agent"]}`);
    check(/^msg_\w+$/.test(headers["webhook-id"]), `#${i} webhook-id`);
    check(Math.abs(Date.now() / 1000 - Number(headers["webhook-timestamp"])) < 300, `#${i} timestamp is now`);
    check(headers["webhook-signature"].split(" ").length === secrets.length, `#${i} one signature per secret`);
    for (const secret of secrets) {
        let parsed;
        try {
            parsed = new Webhook(secret).verify(body, headers);
        } catch (e) {
            check(false, `#${i} verify with ${secret.slice(0, 10)}…: ${e.message}`);
            continue;
        }
        check(parsed.data.entity === "webhook", `#${i} data.entity`);
        check(parsed.data.webhook_password === "pw-crosscheck", `#${i} webhook_password`);
        check(parsed.data.payload.transaction_status === "SUCCESS", `#${i} payload settled`);
        events.add(parsed.data.webhook_event);
    }
    const webhook = new Webhook(secrets[0]);
    check(rejects(() => webhook.verify(body + " ", headers)), `#${i} tampered body rejected`);
    check(rejects(() => webhook.verify(body, { ...headers, "webhook-id": headers["webhook-id"] + "x" })),
        `#${i} other webhook-id rejected`);
    const stale = String(Number(headers["webhook-timestamp"]) - 600);
    check(rejects(() => webhook.verify(body, { ...headers, "webhook-timestamp": stale })), `#${i} stale timestamp rejected`);
    const stranger = new Webhook("whsec_" + Buffer.alloc(32, 7).toString("base64"));
    check(rejects(() => stranger.verify(body, headers)), `#${i} other secret rejected`);
}
check(events.has("event.mobile_recharge") && events.has("event.appstore_voucher") && events.has("event.dth_recharge"),
    `all three event kinds seen: ${[...events].join(", ")}`);

console.log(`${checks - failures}/${checks} standardwebhooks checks passed`);
process.exit(failures === 0 ? 0 : 1);
