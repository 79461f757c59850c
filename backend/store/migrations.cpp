#include "migrations.h"

namespace {

/// SQLite's table rebuild (migration 13): a new table `rebuilt_<table>` with `columns` (the same columns in the
/// same order as `table`, so `SELECT *` copies every row with its id), the rows copied, the old table dropped
/// (its indexes with it), the new one renamed, and `indexes` created again exactly as they were.
QStringList sqliteRebuild(const QString &table, const QString &columns, const QStringList &indexes)
{
    const QString rebuilt = QStringLiteral("rebuilt_") + table;
    return QStringList{
               QStringLiteral("CREATE TABLE %1 (%2)").arg(rebuilt, columns),
               QStringLiteral("INSERT INTO %1 SELECT * FROM %2").arg(rebuilt, table),
               QStringLiteral("DROP TABLE %1").arg(table),
               QStringLiteral("ALTER TABLE %1 RENAME TO %2").arg(rebuilt, table),
           } +
           indexes;
}

} // namespace

const QList<Migration> &allMigrations()
{
    static const QList<Migration> migrations{
        {1,
         {
             QStringLiteral("CREATE TABLE accounts ("
                            " id %ID%,"
                            " name TEXT NOT NULL UNIQUE,"
                            " created_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE TABLE api_keys ("
                            " key_id TEXT PRIMARY KEY,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " name TEXT NOT NULL,"
                            " secret_hash TEXT NOT NULL,"
                            " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                            " scope TEXT NOT NULL CHECK (scope IN ('pos', 'admin')),"
                            " created_at BIGINT NOT NULL,"
                            " revoked_at BIGINT)"),
             QStringLiteral("CREATE TABLE wallets ("
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                            " balance BIGINT NOT NULL DEFAULT 0,"
                            " PRIMARY KEY (account_id, mode))"),
             QStringLiteral("CREATE TABLE transactions ("
                            " id %ID%,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                            " type TEXT NOT NULL CHECK (type IN ('MOBILE', 'VOUCHER', 'DTH')),"
                            " operator_code TEXT NOT NULL,"
                            " number TEXT NOT NULL DEFAULT '',"
                            " bill_amount BIGINT NOT NULL CHECK (bill_amount > 0),"
                            " discount BIGINT NOT NULL CHECK (discount >= 0),"
                            " paid BIGINT NOT NULL CHECK (paid = bill_amount - discount),"
                            " customer_email TEXT NOT NULL DEFAULT '',"
                            " status TEXT NOT NULL CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED')),"
                            " redeem_code TEXT NOT NULL DEFAULT '',"
                            " reference_id TEXT,"
                            " fingerprint TEXT NOT NULL,"
                            " key_id TEXT NOT NULL,"
                            " created_at BIGINT NOT NULL,"
                            " updated_at BIGINT NOT NULL,"
                            " UNIQUE (account_id, reference_id))"),
             QStringLiteral("CREATE INDEX transactions_listing ON transactions (account_id, mode, created_at, id)"),
             QStringLiteral("CREATE INDEX transactions_status ON transactions (account_id, mode, status, created_at)"),
             QStringLiteral("CREATE TABLE wallet_ledger ("
                            " id %ID%,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                            " amount BIGINT NOT NULL,"
                            " kind TEXT NOT NULL CHECK (kind IN ('topup', 'debit', 'refund', 'opening')),"
                            " transaction_id BIGINT REFERENCES transactions(id),"
                            " note TEXT NOT NULL DEFAULT '',"
                            " actor TEXT NOT NULL DEFAULT '',"
                            " created_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE INDEX wallet_ledger_account ON wallet_ledger (account_id, mode, id)"),
             QStringLiteral("CREATE INDEX wallet_ledger_transaction ON wallet_ledger (transaction_id)"),
             QStringLiteral("CREATE TABLE settlements ("
                            " transaction_id BIGINT PRIMARY KEY REFERENCES transactions(id),"
                            " due_at BIGINT NOT NULL,"
                            " final_status TEXT NOT NULL CHECK (final_status IN ('SUCCESS', 'FAILED')))"),
             QStringLiteral("CREATE INDEX settlements_due ON settlements (due_at)"),
         }},
        {2,
         {
             // Aadhaar OTP flow (api-conventions.md): secrets only as keyed hashes (hex), the number only sealed
             // (base64) and only while OTP_GENERATED; captcha PNG (base64) until the flow ends.
             QStringLiteral("CREATE TABLE aadhaar_transactions ("
                            " id %ID%,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                            " key_id TEXT NOT NULL,"
                            " status TEXT NOT NULL CHECK (status IN ('CAPTCHA_GENERATED', 'OTP_GENERATED',"
                            " 'AUTHENTICATION_SUCCESS', 'CLOSED')),"
                            " closed_reason TEXT NOT NULL DEFAULT '',"
                            " captcha_token TEXT NOT NULL UNIQUE,"
                            " captcha_png TEXT,"
                            " captcha_hash TEXT NOT NULL,"
                            " captcha_expires_at BIGINT NOT NULL,"
                            " captcha_failures INTEGER NOT NULL DEFAULT 0,"
                            " aadhaar_sealed TEXT CHECK (aadhaar_sealed IS NULL OR status = 'OTP_GENERATED'),"
                            " aadhaar_masked TEXT NOT NULL DEFAULT '',"
                            " mobile_masked TEXT NOT NULL DEFAULT '',"
                            " otp_hash TEXT,"
                            " otp_expires_at BIGINT NOT NULL DEFAULT 0,"
                            " otp_failures INTEGER NOT NULL DEFAULT 0,"
                            " expires_at BIGINT NOT NULL,"
                            " created_at BIGINT NOT NULL,"
                            " updated_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE INDEX aadhaar_transactions_open ON aadhaar_transactions (status, expires_at)"),
             QStringLiteral("CREATE TABLE aadhaar_otp_sends ("
                            " id %ID%,"
                            " number_hash TEXT NOT NULL,"
                            " transaction_id BIGINT NOT NULL REFERENCES aadhaar_transactions(id),"
                            " sent_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE INDEX aadhaar_otp_sends_number ON aadhaar_otp_sends (number_hash, sent_at)"),
             QStringLiteral("CREATE TABLE aadhaar_sandbox_secrets ("
                            " transaction_id BIGINT PRIMARY KEY REFERENCES aadhaar_transactions(id),"
                            " captcha_value TEXT NOT NULL,"
                            " otp_value TEXT)"),
             QStringLiteral("CREATE TABLE sms_outbox ("
                            " id %ID%,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " transaction_id BIGINT REFERENCES aadhaar_transactions(id),"
                            " mobile_masked TEXT NOT NULL,"
                            " message TEXT NOT NULL,"
                            " created_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE INDEX sms_outbox_account ON sms_outbox (account_id, id)"),
         }},
        // MIGRATION 2 (aadhaar) goes here
        // MIGRATION 3 (webhooks) goes here
        {3,
         {
             QStringLiteral("CREATE TABLE webhook_endpoints ("
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                            " url TEXT NOT NULL,"
                            " builtin_inbox INTEGER NOT NULL DEFAULT 0 CHECK (builtin_inbox IN (0, 1)),"
                            " password TEXT NOT NULL,"
                            " secret TEXT NOT NULL,"
                            " previous_secret TEXT NOT NULL DEFAULT '',"
                            " previous_secret_expires_at BIGINT NOT NULL DEFAULT 0,"
                            " disabled_at BIGINT,"
                            " disabled_reason TEXT NOT NULL DEFAULT '',"
                            " created_at BIGINT NOT NULL,"
                            " updated_at BIGINT NOT NULL,"
                            " PRIMARY KEY (account_id, mode))"),
             QStringLiteral("CREATE TABLE webhook_events ("
                            " id %ID%,"
                            " webhook_id TEXT NOT NULL UNIQUE,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                            " event_type TEXT NOT NULL,"
                            " transaction_id BIGINT REFERENCES transactions(id),"
                            " payload TEXT NOT NULL,"
                            " status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),"
                            " attempts INTEGER NOT NULL DEFAULT 0,"
                            " retry_index INTEGER NOT NULL DEFAULT 0,"
                            " next_attempt_at BIGINT NOT NULL,"
                            " locked_until BIGINT NOT NULL DEFAULT 0,"
                            " last_error TEXT NOT NULL DEFAULT '',"
                            " created_at BIGINT NOT NULL,"
                            " delivered_at BIGINT)"),
             QStringLiteral("CREATE INDEX webhook_events_due ON webhook_events (status, next_attempt_at)"),
             QStringLiteral("CREATE INDEX webhook_events_transaction ON webhook_events (transaction_id)"),
             QStringLiteral("CREATE TABLE webhook_attempts ("
                            " id %ID%,"
                            " event_id BIGINT NOT NULL REFERENCES webhook_events(id),"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                            " attempt INTEGER NOT NULL,"
                            " attempted_at BIGINT NOT NULL,"
                            " url TEXT NOT NULL,"
                            " http_status INTEGER,"
                            " latency_ms BIGINT NOT NULL,"
                            " success INTEGER NOT NULL CHECK (success IN (0, 1)),"
                            " error TEXT NOT NULL DEFAULT '')"),
             QStringLiteral("CREATE INDEX webhook_attempts_account ON webhook_attempts (account_id, mode, id)"),
             QStringLiteral("CREATE INDEX webhook_attempts_event ON webhook_attempts (event_id)"),
             QStringLiteral("CREATE TABLE webhook_inbox ("
                            " id %ID%,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                            " webhook_id TEXT NOT NULL,"
                            " event_type TEXT NOT NULL,"
                            " transaction_id BIGINT NOT NULL DEFAULT 0,"
                            " body TEXT NOT NULL,"
                            " received_at BIGINT NOT NULL,"
                            " deliveries INTEGER NOT NULL DEFAULT 1,"
                            " UNIQUE (account_id, mode, webhook_id))"),
             QStringLiteral("CREATE INDEX webhook_inbox_account ON webhook_inbox (account_id, mode, id)"),
         }},
        {4,
         {
             QStringLiteral("CREATE TABLE users ("
                            " id %ID%,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " name TEXT NOT NULL,"
                            " role TEXT NOT NULL CHECK (role IN ('clerk', 'admin')),"
                            " pin_hash TEXT NOT NULL,"
                            " active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),"
                            " failed_attempts INTEGER NOT NULL DEFAULT 0,"
                            " locked_until BIGINT,"
                            " created_at BIGINT NOT NULL,"
                            " updated_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE UNIQUE INDEX users_account_name ON users (account_id, lower(name))"),
             QStringLiteral("CREATE TABLE user_sessions ("
                            " token_hash TEXT PRIMARY KEY,"
                            " user_id BIGINT NOT NULL REFERENCES users(id),"
                            " expires_at BIGINT NOT NULL,"
                            " created_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE INDEX user_sessions_user ON user_sessions (user_id)"),
             QStringLiteral("CREATE INDEX user_sessions_expiry ON user_sessions (expires_at)"),
             QStringLiteral("CREATE TABLE shop_settings ("
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " key TEXT NOT NULL,"
                            " value TEXT NOT NULL,"
                            " PRIMARY KEY (account_id, key))"),
             QStringLiteral("CREATE TABLE audit_log ("
                            " id %ID%,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " actor TEXT NOT NULL,"
                            " action TEXT NOT NULL,"
                            " detail TEXT NOT NULL DEFAULT '',"
                            " created_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE INDEX audit_log_account ON audit_log (account_id, id)"),
         }},
        // MIGRATION 4 (users) goes here
        {5,
         {
             // Who sold it (the signed-in person at the terminal), for the day-end report; and indexes
             // for the back office's history filters at a million rows (issue 6).
             QStringLiteral("ALTER TABLE transactions ADD COLUMN clerk TEXT NOT NULL DEFAULT ''"),
             QStringLiteral("CREATE INDEX transactions_number ON transactions (account_id, mode, number)"),
             QStringLiteral("CREATE INDEX transactions_operator ON transactions (account_id, mode, operator_code, id)"),
             QStringLiteral("CREATE INDEX transactions_type ON transactions (account_id, mode, type, id)"),
         }},
        {6,
         {
             // Back office at a million rows (issue 6). The amount orders of the history walk this
             // index (TransactionRepository::list decides when that beats sorting a date range).
             QStringLiteral("CREATE INDEX transactions_amount ON transactions (account_id, mode, bill_amount, id)"),
             // Per-IST-day rollups of the transactions, one row per (day, type, operator, status):
             // count and paise sums. TransactionRepository keeps them in the same database
             // transaction as every insert and status change; the totals line reads whole days here
             // and only the partial days at the ends of a range from the rows. ist_day is the IST
             // calendar day as days since 1970-01-01 IST: (created_at + 19800000) / 86400000.
             QStringLiteral("CREATE TABLE daily_totals ("
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                            " ist_day BIGINT NOT NULL,"
                            " type TEXT NOT NULL,"
                            " operator_code TEXT NOT NULL,"
                            " status TEXT NOT NULL,"
                            " tx_count BIGINT NOT NULL,"
                            " bill_amount BIGINT NOT NULL,"
                            " discount BIGINT NOT NULL,"
                            " paid BIGINT NOT NULL,"
                            " PRIMARY KEY (account_id, mode, ist_day, type, operator_code, status))"),
             QStringLiteral(
                 "INSERT INTO daily_totals (account_id, mode, ist_day, type, operator_code, status, tx_count,"
                 " bill_amount, discount, paid)"
                 " SELECT account_id, mode, (created_at + 19800000) / 86400000, type, operator_code, status,"
                 " COUNT(*), SUM(bill_amount), SUM(discount), SUM(paid) FROM transactions"
                 " GROUP BY account_id, mode, (created_at + 19800000) / 86400000, type, operator_code, status"),
         }},
        {7,
         {
             // Who holds a webhook lease: the instance key of the server that claimed the event (0: nobody).
             // On PostgreSQL each server holds a session advisory lock on its key while it runs, so the
             // leases of a server that died are taken back at once instead of after the lease time.
             QStringLiteral("ALTER TABLE webhook_events ADD COLUMN locked_by BIGINT NOT NULL DEFAULT 0"),
         }},
        {8,
         {
             // Live sales through an upstream (issue 11). One row per database (id = 1): the upstream this
             // server sells through (secrets sealed by the vault, base64; '' when not set), this server's id
             // for reference_ids (rd-<server_id>-<transaction_id>) and the upstream's health as seen from real
             // calls. base_url '' means no upstream is configured.
             QStringLiteral("CREATE TABLE upstream_config ("
                            " id BIGINT PRIMARY KEY CHECK (id = 1),"
                            " server_id TEXT NOT NULL,"
                            " base_url TEXT NOT NULL DEFAULT '',"
                            " key_id TEXT NOT NULL DEFAULT '',"
                            " key_secret_sealed TEXT NOT NULL DEFAULT '',"
                            " webhook_password_sealed TEXT NOT NULL DEFAULT '',"
                            " webhook_secret_sealed TEXT NOT NULL DEFAULT '',"
                            " version BIGINT NOT NULL DEFAULT 0,"
                            " health_state TEXT NOT NULL DEFAULT 'unknown',"
                            " health_since BIGINT NOT NULL DEFAULT 0,"
                            " last_contact BIGINT NOT NULL DEFAULT 0,"
                            " last_error TEXT NOT NULL DEFAULT '')"),
             // The upstream state machine of one live sale (architecture.md, "Live sales through an upstream"):
             // what to send (endpoint and exact body, re-sent unchanged), where it stands, when to act next.
             QStringLiteral("CREATE TABLE upstream_sales ("
                            " transaction_id BIGINT PRIMARY KEY REFERENCES transactions(id),"
                            " reference_id TEXT NOT NULL UNIQUE,"
                            " state TEXT NOT NULL CHECK (state IN ('queued', 'sent', 'unknown', 'pending', 'settled',"
                            " 'refused')),"
                            " upstream_id BIGINT NOT NULL DEFAULT 0,"
                            " attempts BIGINT NOT NULL DEFAULT 0,"
                            " next_attempt_at BIGINT NOT NULL DEFAULT 0,"
                            " error_code TEXT NOT NULL DEFAULT '',"
                            " error_description TEXT NOT NULL DEFAULT '',"
                            " endpoint TEXT NOT NULL,"
                            " request_body TEXT NOT NULL,"
                            " updated_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE INDEX upstream_sales_due ON upstream_sales (state, next_attempt_at)"),
             QStringLiteral("CREATE INDEX upstream_sales_upstream_id ON upstream_sales (upstream_id)"),
             // Every call made to the upstream, for the sale's detail pane and reconciliation.
             QStringLiteral("CREATE TABLE upstream_calls ("
                            " id %ID%,"
                            " transaction_id BIGINT NOT NULL REFERENCES transactions(id),"
                            " at BIGINT NOT NULL,"
                            " method TEXT NOT NULL,"
                            " endpoint TEXT NOT NULL,"
                            " http_status BIGINT NOT NULL DEFAULT 0,"
                            " latency_ms BIGINT NOT NULL,"
                            " error TEXT NOT NULL DEFAULT '',"
                            " outcome TEXT NOT NULL)"),
             QStringLiteral("CREATE INDEX upstream_calls_transaction ON upstream_calls (transaction_id, id)"),
         }},
        // Issue 12: webhook secrets sealed with the vault like the upstream's. The clear columns stay (a
        // migration cannot reach the vault key): the server seals what they hold at start and blanks them
        // (WebhookEndpointRepository::sealClearSecrets).
        {9,
         {
             QStringLiteral("ALTER TABLE webhook_endpoints ADD COLUMN password_sealed TEXT NOT NULL DEFAULT ''"),
             QStringLiteral("ALTER TABLE webhook_endpoints ADD COLUMN secret_sealed TEXT NOT NULL DEFAULT ''"),
             QStringLiteral("ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_sealed TEXT NOT NULL DEFAULT ''"),
         }},
        // Issue 13: a live Aadhaar flow runs at the upstream; the shop's transaction (aadhaar_transactions, mode
        // 'live', the upstream's captcha image under the shop's own token) maps to the upstream's transaction id.
        {10,
         {
             QStringLiteral("CREATE TABLE aadhaar_upstream_links ("
                            " transaction_id BIGINT PRIMARY KEY REFERENCES aadhaar_transactions(id),"
                            " upstream_transaction_id BIGINT NOT NULL,"
                            " created_at BIGINT NOT NULL)"),
         }},
        // Issue 16: several servers on one database claim a live sale's next upstream call with a lease
        // (UpstreamSaleRepository::claimDue): who holds it and until when (UTC ms); '' and 0: nobody.
        {11,
         {
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN lease_owner TEXT NOT NULL DEFAULT ''"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0"),
         }},
        // Issue 16: state that several servers on one database share instead of keeping it in memory.
        {12,
         {
             // Versions of things servers cache: a change bumps its row; a server that cached the old version
             // drops its copy when it sees a new one ('api_keys': revocations, read at most once a second).
             QStringLiteral("CREATE TABLE state_versions ("
                            " name TEXT PRIMARY KEY,"
                            " version BIGINT NOT NULL DEFAULT 0)"),
             QStringLiteral("INSERT INTO state_versions (name, version) VALUES ('api_keys', 0)"),
             // Failure counters that throttle guessing (ThrottleRepository): wrong API key secrets per
             // address and key id ('key:...'), wrong PINs of names that match no user ('pin:...').
             QStringLiteral("CREATE TABLE throttles ("
                            " bucket TEXT PRIMARY KEY,"
                            " failures BIGINT NOT NULL,"
                            " window_start BIGINT NOT NULL,"
                            " blocked_until BIGINT NOT NULL DEFAULT 0,"
                            " last_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE INDEX throttles_last_at ON throttles (last_at)"),
             // The plan catalogue in force (one row, id = 1): the file as imported or synced, its origin, and
             // a version every server polls to serve a new catalogue within seconds of its import anywhere.
             QStringLiteral("CREATE TABLE plan_catalogue ("
                            " id BIGINT PRIMARY KEY CHECK (id = 1),"
                            " version BIGINT NOT NULL,"
                            " body TEXT NOT NULL,"
                            " sha256 TEXT NOT NULL,"
                            " source TEXT NOT NULL,"
                            " upstream_host TEXT NOT NULL,"
                            " updated_at BIGINT NOT NULL,"
                            " stored_at BIGINT NOT NULL)"),
             // Which vault key the servers of this database use (a keyed hash of a fixed text, never the key):
             // a server with another key file could check no captcha, OTP or sealed secret of the others.
             QStringLiteral("CREATE TABLE vault_fingerprint ("
                            " id BIGINT PRIMARY KEY CHECK (id = 1),"
                            " fingerprint TEXT NOT NULL)"),
         }},
        // Issue 17: the tables a sale, its webhook and a live sale's upstream calls write, rebuilt on SQLite
        // without two costs per row write (docs/benchmarks.md, "Instructions per request"). SQLite 3.40 checks `x IN
        // (three
        // or more constants)` through a temporary b-tree built for every row written (~32 k instructions; two
        // constants and `x = 'A' OR x = 'B' OR ...` are plain comparisons, ~0.5 k): those CHECKs are written with
        // OR, allowing the same values. AUTOINCREMENT updates sqlite_sequence on every INSERT; a plain INTEGER
        // PRIMARY KEY gives the largest id + 1, the same ids as long as rows are never deleted, and the product
        // deletes none of these tables' rows (only settlements, sessions, throttles and Aadhaar secrets and
        // OTP sends are deleted, and none of those is rebuilt). PostgreSQL's CHECK IN and identity columns have
        // neither cost: its schema stays.
        {13,
         sqliteRebuild(QStringLiteral("transactions"),
                       QStringLiteral(" id INTEGER PRIMARY KEY,"
                                      " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                                      " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                                      " type TEXT NOT NULL CHECK (type = 'MOBILE' OR type = 'VOUCHER' OR type = 'DTH'),"
                                      " operator_code TEXT NOT NULL,"
                                      " number TEXT NOT NULL DEFAULT '',"
                                      " bill_amount BIGINT NOT NULL CHECK (bill_amount > 0),"
                                      " discount BIGINT NOT NULL CHECK (discount >= 0),"
                                      " paid BIGINT NOT NULL CHECK (paid = bill_amount - discount),"
                                      " customer_email TEXT NOT NULL DEFAULT '',"
                                      " status TEXT NOT NULL"
                                      " CHECK (status = 'PENDING' OR status = 'SUCCESS' OR status = 'FAILED'),"
                                      " redeem_code TEXT NOT NULL DEFAULT '',"
                                      " reference_id TEXT,"
                                      " fingerprint TEXT NOT NULL,"
                                      " key_id TEXT NOT NULL,"
                                      " created_at BIGINT NOT NULL,"
                                      " updated_at BIGINT NOT NULL,"
                                      " clerk TEXT NOT NULL DEFAULT '',"
                                      " UNIQUE (account_id, reference_id)"),
                       {
                           QStringLiteral("CREATE INDEX transactions_listing ON transactions (account_id, mode,"
                                          " created_at, id)"),
                           QStringLiteral("CREATE INDEX transactions_status ON transactions (account_id, mode,"
                                          " status, created_at)"),
                           QStringLiteral("CREATE INDEX transactions_number ON transactions (account_id, mode,"
                                          " number)"),
                           QStringLiteral("CREATE INDEX transactions_operator ON transactions (account_id, mode,"
                                          " operator_code, id)"),
                           QStringLiteral("CREATE INDEX transactions_type ON transactions (account_id, mode, type,"
                                          " id)"),
                           QStringLiteral("CREATE INDEX transactions_amount ON transactions (account_id, mode,"
                                          " bill_amount, id)"),
                       }) +
             sqliteRebuild(
                 QStringLiteral("wallet_ledger"),
                 QStringLiteral(" id INTEGER PRIMARY KEY,"
                                " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                                " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                                " amount BIGINT NOT NULL,"
                                " kind TEXT NOT NULL"
                                " CHECK (kind = 'topup' OR kind = 'debit' OR kind = 'refund' OR kind = 'opening'),"
                                " transaction_id BIGINT REFERENCES transactions(id),"
                                " note TEXT NOT NULL DEFAULT '',"
                                " actor TEXT NOT NULL DEFAULT '',"
                                " created_at BIGINT NOT NULL"),
                 {
                     QStringLiteral("CREATE INDEX wallet_ledger_account ON wallet_ledger (account_id, mode,"
                                    " id)"),
                     QStringLiteral("CREATE INDEX wallet_ledger_transaction ON wallet_ledger"
                                    " (transaction_id)"),
                 }) +
             sqliteRebuild(QStringLiteral("webhook_events"),
                           QStringLiteral(" id INTEGER PRIMARY KEY,"
                                          " webhook_id TEXT NOT NULL UNIQUE,"
                                          " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                                          " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                                          " event_type TEXT NOT NULL,"
                                          " transaction_id BIGINT REFERENCES transactions(id),"
                                          " payload TEXT NOT NULL,"
                                          " status TEXT NOT NULL"
                                          " CHECK (status = 'pending' OR status = 'delivered' OR status = 'failed'),"
                                          " attempts INTEGER NOT NULL DEFAULT 0,"
                                          " retry_index INTEGER NOT NULL DEFAULT 0,"
                                          " next_attempt_at BIGINT NOT NULL,"
                                          " locked_until BIGINT NOT NULL DEFAULT 0,"
                                          " last_error TEXT NOT NULL DEFAULT '',"
                                          " created_at BIGINT NOT NULL,"
                                          " delivered_at BIGINT,"
                                          " locked_by BIGINT NOT NULL DEFAULT 0"),
                           {
                               QStringLiteral("CREATE INDEX webhook_events_due ON webhook_events (status,"
                                              " next_attempt_at)"),
                               QStringLiteral("CREATE INDEX webhook_events_transaction ON webhook_events"
                                              " (transaction_id)"),
                           }) +
             sqliteRebuild(QStringLiteral("webhook_attempts"),
                           QStringLiteral(" id INTEGER PRIMARY KEY,"
                                          " event_id BIGINT NOT NULL REFERENCES webhook_events(id),"
                                          " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                                          " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                                          " attempt INTEGER NOT NULL,"
                                          " attempted_at BIGINT NOT NULL,"
                                          " url TEXT NOT NULL,"
                                          " http_status INTEGER,"
                                          " latency_ms BIGINT NOT NULL,"
                                          " success INTEGER NOT NULL CHECK (success IN (0, 1)),"
                                          " error TEXT NOT NULL DEFAULT ''"),
                           {
                               QStringLiteral("CREATE INDEX webhook_attempts_account ON webhook_attempts (account_id,"
                                              " mode, id)"),
                               QStringLiteral("CREATE INDEX webhook_attempts_event ON webhook_attempts (event_id)"),
                           }) +
             sqliteRebuild(QStringLiteral("webhook_inbox"),
                           QStringLiteral(" id INTEGER PRIMARY KEY,"
                                          " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                                          " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                                          " webhook_id TEXT NOT NULL,"
                                          " event_type TEXT NOT NULL,"
                                          " transaction_id BIGINT NOT NULL DEFAULT 0,"
                                          " body TEXT NOT NULL,"
                                          " received_at BIGINT NOT NULL,"
                                          " deliveries INTEGER NOT NULL DEFAULT 1,"
                                          " UNIQUE (account_id, mode, webhook_id)"),
                           {
                               QStringLiteral("CREATE INDEX webhook_inbox_account ON webhook_inbox (account_id, mode,"
                                              " id)"),
                           }) +
             sqliteRebuild(QStringLiteral("upstream_sales"),
                           QStringLiteral(" transaction_id BIGINT PRIMARY KEY REFERENCES transactions(id),"
                                          " reference_id TEXT NOT NULL UNIQUE,"
                                          " state TEXT NOT NULL CHECK (state = 'queued' OR state = 'sent' OR"
                                          " state = 'unknown' OR state = 'pending' OR state = 'settled' OR"
                                          " state = 'refused'),"
                                          " upstream_id BIGINT NOT NULL DEFAULT 0,"
                                          " attempts BIGINT NOT NULL DEFAULT 0,"
                                          " next_attempt_at BIGINT NOT NULL DEFAULT 0,"
                                          " error_code TEXT NOT NULL DEFAULT '',"
                                          " error_description TEXT NOT NULL DEFAULT '',"
                                          " endpoint TEXT NOT NULL,"
                                          " request_body TEXT NOT NULL,"
                                          " updated_at BIGINT NOT NULL,"
                                          " lease_owner TEXT NOT NULL DEFAULT '',"
                                          " lease_until BIGINT NOT NULL DEFAULT 0"),
                           {
                               QStringLiteral("CREATE INDEX upstream_sales_due ON upstream_sales (state,"
                                              " next_attempt_at)"),
                               QStringLiteral("CREATE INDEX upstream_sales_upstream_id ON upstream_sales"
                                              " (upstream_id)"),
                           }) +
             sqliteRebuild(QStringLiteral("upstream_calls"),
                           QStringLiteral(" id INTEGER PRIMARY KEY,"
                                          " transaction_id BIGINT NOT NULL REFERENCES transactions(id),"
                                          " at BIGINT NOT NULL,"
                                          " method TEXT NOT NULL,"
                                          " endpoint TEXT NOT NULL,"
                                          " http_status BIGINT NOT NULL DEFAULT 0,"
                                          " latency_ms BIGINT NOT NULL,"
                                          " error TEXT NOT NULL DEFAULT '',"
                                          " outcome TEXT NOT NULL"),
                           {
                               QStringLiteral("CREATE INDEX upstream_calls_transaction ON upstream_calls"
                                              " (transaction_id, id)"),
                           }),
         MigrationScope::SqliteTableRebuild},
        // Issue 26: the upstream a shop really buys from promises only api-v1.md, and a shop keeps several.
        // `upstreams`: one row per upstream by name, tried by priority (lowest first) for the services and operators
        // it sells ('' = all), with an opaque credential (sent verbatim after "Basic ") or a key pair, secrets sealed
        // by the vault, what it declared it offers beyond the spec (its OpenAPI document's x-rechargedesk-upstream as
        // JSON; '' = the spec's promises only) and its health. The one upstream of before becomes `default`, and
        // upstream_config keeps only this server's id and the change counter (its old columns are blanked: no
        // sealed secret is left behind there).
        // Each live sale keeps which upstream it went to and what that upstream had promised when it was sent:
        // send_once = 1 unless a re-send of its reference_id was promised to be the same sale, status_check = 1 when
        // it may be polled. Sales of before are held to the spec (1, 0): whatever they were sent to, none is sent
        // again; a person or the upstream's webhook ends them. `tried`: the upstreams that definitely refused or
        // failed it before (JSON, with their words). resolved_*: a person ended the sale (POST
        // /transactions/{id}/resolve). reversed_at / reversal_source: the upstream reported FAILED for a sale it had
        // reported SUCCESS (a reversal, refunded once); mismatch_*: it reported SUCCESS for a sale we hold FAILED
        // (left for a person, never a silent second debit). An Aadhaar flow stays on the upstream it began at.
        {14,
         {
             QStringLiteral("CREATE TABLE upstreams ("
                            " name TEXT PRIMARY KEY,"
                            " priority BIGINT NOT NULL DEFAULT 100,"
                            " services TEXT NOT NULL DEFAULT '',"
                            " operators TEXT NOT NULL DEFAULT '',"
                            " enabled INTEGER NOT NULL DEFAULT 1,"
                            " base_url TEXT NOT NULL,"
                            " key_id TEXT NOT NULL DEFAULT '',"
                            " key_secret_sealed TEXT NOT NULL DEFAULT '',"
                            " credential_sealed TEXT NOT NULL DEFAULT '',"
                            " webhook_password_sealed TEXT NOT NULL DEFAULT '',"
                            " webhook_secret_sealed TEXT NOT NULL DEFAULT '',"
                            " offers TEXT NOT NULL DEFAULT '',"
                            " health_state TEXT NOT NULL DEFAULT 'unknown',"
                            " health_since BIGINT NOT NULL DEFAULT 0,"
                            " last_contact BIGINT NOT NULL DEFAULT 0,"
                            " last_error TEXT NOT NULL DEFAULT '',"
                            " updated_at BIGINT NOT NULL DEFAULT 0)"),
             QStringLiteral("INSERT INTO upstreams (name, base_url, key_id, key_secret_sealed, webhook_password_sealed,"
                            " webhook_secret_sealed, health_state, health_since, last_contact, last_error)"
                            " SELECT 'default', base_url, key_id, key_secret_sealed, webhook_password_sealed,"
                            " webhook_secret_sealed, health_state, health_since, last_contact, last_error"
                            " FROM upstream_config WHERE base_url <> ''"),
             QStringLiteral("UPDATE upstream_config SET base_url = '', key_id = '', key_secret_sealed = '',"
                            " webhook_password_sealed = '', webhook_secret_sealed = '', version = version + 1"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN upstream_name TEXT NOT NULL DEFAULT 'default'"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN tried TEXT NOT NULL DEFAULT ''"),
             QStringLiteral("ALTER TABLE aadhaar_upstream_links ADD COLUMN upstream_name TEXT NOT NULL"
                            " DEFAULT 'default'"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN send_once INTEGER NOT NULL DEFAULT 1"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN status_check INTEGER NOT NULL DEFAULT 0"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN resolved_by TEXT NOT NULL DEFAULT ''"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN resolution_note TEXT NOT NULL DEFAULT ''"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN resolved_at BIGINT NOT NULL DEFAULT 0"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN reversed_at BIGINT NOT NULL DEFAULT 0"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN reversal_source TEXT NOT NULL DEFAULT ''"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN mismatch_reported TEXT NOT NULL DEFAULT ''"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN mismatch_source TEXT NOT NULL DEFAULT ''"),
             QStringLiteral("ALTER TABLE upstream_sales ADD COLUMN mismatch_at BIGINT NOT NULL DEFAULT 0"),
         }},
        // Issue 26, "By the upstream's statement": each reconciliation of an upstream's statement (rechargedesk
        // upstream reconcile, POST /api/v1/upstreams/{name}/statements) with its counts, and the rows a person must
        // look at (mismatches, rows of no sale of ours, unreadable rows; at most 1,000 per run, lines_total counts
        // them all).
        {15,
         {
             QStringLiteral("CREATE TABLE statement_runs ("
                            " id %ID%,"
                            " upstream_name TEXT NOT NULL,"
                            " created_at BIGINT NOT NULL,"
                            " actor TEXT NOT NULL,"
                            " file_name TEXT NOT NULL,"
                            " row_count BIGINT NOT NULL,"
                            " matched BIGINT NOT NULL,"
                            " settled BIGINT NOT NULL,"
                            " reversed BIGINT NOT NULL,"
                            " mismatched BIGINT NOT NULL,"
                            " unchanged BIGINT NOT NULL,"
                            " unknown_count BIGINT NOT NULL,"
                            " unreadable BIGINT NOT NULL,"
                            " lines_total BIGINT NOT NULL)"),
             QStringLiteral("CREATE INDEX statement_runs_upstream ON statement_runs (upstream_name, id)"),
             QStringLiteral("CREATE TABLE statement_run_lines ("
                            " run_id BIGINT NOT NULL REFERENCES statement_runs(id),"
                            " seq INTEGER NOT NULL,"
                            " line_no BIGINT NOT NULL,"
                            " kind TEXT NOT NULL CHECK (kind = 'mismatch' OR kind = 'unknown' OR kind = 'unreadable'),"
                            " reference_id TEXT NOT NULL,"
                            " transaction_id BIGINT NOT NULL DEFAULT 0,"
                            " statement TEXT NOT NULL,"
                            " held TEXT NOT NULL,"
                            " reason TEXT NOT NULL,"
                            " description TEXT NOT NULL,"
                            " PRIMARY KEY (run_id, seq))"),
         }},
        // Issue 27: a sale that became FAILED after its client was shown PENDING (or SUCCESS): the clerk had
        // collected the bill and gives it back. Written by the settle of a PENDING sale whose end did not reach the
        // client in the initiate's answer (a sandbox timer, an upstream's later answer or webhook, a person's
        // resolve) and by a reversal; 0 for every sale settled before this migration and for every other sale.
        {16,
         {
             QStringLiteral("ALTER TABLE transactions ADD COLUMN failed_after_pending INTEGER NOT NULL DEFAULT 0"),
         }},
        // Issue 28: shifts and tender. A person's shift at a terminal (ShiftRepository): the opening cash, and at the
        // close the count (counts_json {"500": n, ...}, coins), the cash counted and the cash expected then (frozen),
        // who closed it and why. At most one open shift per terminal and one per person, per account and mode
        // (partial unique indexes, so a closed shift never blocks a new one). Cash put into or taken out of the
        // drawer during a shift. A sale keeps how the customer paid (tender 'cash' / 'upi', NULL: not recorded) and
        // the shift it was taken in (NULL: none); the index is partial, so sales without a shift cost it nothing.
        // Money in paise, times UTC ms.
        {17,
         {
             QStringLiteral("CREATE TABLE shifts ("
                            " id %ID%,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                            " user_id BIGINT NOT NULL REFERENCES users(id),"
                            " clerk TEXT NOT NULL,"
                            " terminal TEXT NOT NULL,"
                            " opened_at_ms BIGINT NOT NULL,"
                            " opening_cash_paise BIGINT NOT NULL CHECK (opening_cash_paise >= 0),"
                            " state TEXT NOT NULL CHECK (state = 'open' OR state = 'closed'),"
                            " closed_at_ms BIGINT,"
                            " counts_json TEXT,"
                            " coins_paise BIGINT,"
                            " counted_cash_paise BIGINT,"
                            " expected_cash_paise BIGINT,"
                            " closed_by TEXT,"
                            " close_note TEXT)"),
             QStringLiteral("CREATE UNIQUE INDEX shifts_open_terminal ON shifts (account_id, mode, lower(terminal))"
                            " WHERE state = 'open'"),
             QStringLiteral("CREATE UNIQUE INDEX shifts_open_user ON shifts (account_id, mode, user_id)"
                            " WHERE state = 'open'"),
             QStringLiteral("CREATE INDEX shifts_listing ON shifts (account_id, mode, opened_at_ms, id)"),
             QStringLiteral("CREATE TABLE shift_cash_moves ("
                            " id %ID%,"
                            " shift_id BIGINT NOT NULL REFERENCES shifts(id),"
                            " direction TEXT NOT NULL CHECK (direction = 'in' OR direction = 'out'),"
                            " amount_paise BIGINT NOT NULL CHECK (amount_paise > 0),"
                            " reason TEXT NOT NULL,"
                            " at_ms BIGINT NOT NULL,"
                            " actor TEXT NOT NULL)"),
             QStringLiteral("CREATE INDEX shift_cash_moves_shift ON shift_cash_moves (shift_id, id)"),
             QStringLiteral(
                 "ALTER TABLE transactions ADD COLUMN tender TEXT CHECK (tender = 'cash' OR tender = 'upi')"),
             QStringLiteral("ALTER TABLE transactions ADD COLUMN shift_id BIGINT REFERENCES shifts(id)"),
             QStringLiteral("CREATE INDEX transactions_shift ON transactions (shift_id) WHERE shift_id IS NOT NULL"),
         }},
        // Issue 29: complaints and the operator known from the number. A complaint about one sale
        // (ComplaintRepository):
        // its reason and note, its state (open with the shop's admin, with_upstream while the RechargeDesk upstream
        // that sold the sale handles it, credited or rejected), the resolver's words and the operator's reference, who
        // raised and resolved it and when, its deadline (raised_at + the shop's complaint_deadline_hours, fixed when
        // raised), the upstream's name and complaint id, and the time of its next step (0: none) — the sandbox's
        // decision, a send to the upstream or a poll of it — claimed by the server that takes the step. At most one
        // unresolved complaint per sale (a partial unique index, so resolved ones never block a new one). A mobile sale
        // may carry the circle the clerk chose (NULL: none); the partial index answers "what was last sold to this
        // number" from SUCCESS mobile sales alone (GET /api/v1/numbers/{phone_number}). Times UTC ms.
        {18,
         {
             QStringLiteral("CREATE TABLE complaints ("
                            " id %ID%,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
                            " transaction_id BIGINT NOT NULL REFERENCES transactions(id),"
                            " reason TEXT NOT NULL CHECK (reason IN ('not_received', 'wrong_number',"
                            " 'wrong_operator', 'wrong_amount', 'other')),"
                            " note TEXT NOT NULL DEFAULT '',"
                            " state TEXT NOT NULL CHECK (state IN ('open', 'with_upstream', 'credited', 'rejected')),"
                            " resolution TEXT NOT NULL DEFAULT '',"
                            " operator_reference TEXT NOT NULL DEFAULT '',"
                            " raised_by TEXT NOT NULL,"
                            " raised_at BIGINT NOT NULL,"
                            " resolved_by TEXT NOT NULL DEFAULT '',"
                            " resolved_at BIGINT NOT NULL DEFAULT 0,"
                            " deadline_at BIGINT NOT NULL,"
                            " upstream_name TEXT NOT NULL DEFAULT '',"
                            " upstream_complaint_id BIGINT NOT NULL DEFAULT 0,"
                            " upstream_note TEXT NOT NULL DEFAULT '',"
                            " next_step_at BIGINT NOT NULL DEFAULT 0,"
                            " attempts INTEGER NOT NULL DEFAULT 0,"
                            " updated_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE UNIQUE INDEX complaints_unresolved_sale ON complaints (transaction_id)"
                            " WHERE state IN ('open', 'with_upstream')"),
             QStringLiteral("CREATE INDEX complaints_listing ON complaints (account_id, mode, id)"),
             QStringLiteral("CREATE INDEX complaints_sale ON complaints (transaction_id, id)"),
             QStringLiteral("CREATE INDEX complaints_due ON complaints (next_step_at) WHERE next_step_at > 0"),
             QStringLiteral("CREATE INDEX complaints_upstream ON complaints (upstream_name, upstream_complaint_id)"
                            " WHERE upstream_complaint_id > 0"),
             QStringLiteral("ALTER TABLE transactions ADD COLUMN circle_code TEXT"),
             QStringLiteral(
                 "CREATE INDEX transactions_number_sold ON transactions (account_id, mode, number, created_at,"
                 " id) WHERE status = 'SUCCESS' AND type = 'MOBILE'"),
         }},
        // Issue 29: a distributor answers a downstream shop server's number lookup (`scope=network`) from every
        // account's SUCCESS mobile sales of the caller's mode; this partial index answers it without the account.
        {19,
         {
             QStringLiteral("CREATE INDEX transactions_number_sold_network ON transactions (mode, number, created_at,"
                            " id) WHERE status = 'SUCCESS' AND type = 'MOBILE'"),
         }},
        // Issue 30: a distributor's back office. Every account other than the server's own (`shop`, the distributor)
        // is a shop (ShopRepository): its owner, mobile, circle and GSTIN ('' = none), its state (a suspended shop's
        // calls answer 403 account_suspended) with the reason and time, its credit limit (paise, >= 0: how far below
        // zero its live wallet may go) and the last time one of its keys called (UTC ms, NULL = never); existing
        // accounts are backfilled as active shops. The ledger index answers a shop's statement for a date range; the
        // daily_totals index, today's sales of every shop at once (the Shops list).
        // Fund requests a shop sent to the distributor (FundRequestRepository, A2): amount in paise, how it paid,
        // the UTR (upper-cased, trimmed), the shop's idempotency key, the state and who decided it when, the ledger
        // row of the credit; the slip's bytes (base64) in a table of their own. Times UTC ms.
        {20,
         {
             QStringLiteral("CREATE TABLE shops ("
                            " account_id BIGINT PRIMARY KEY REFERENCES accounts(id),"
                            " owner TEXT NOT NULL DEFAULT '',"
                            " mobile TEXT NOT NULL DEFAULT '',"
                            " circle_code TEXT NOT NULL DEFAULT '',"
                            " gstin TEXT NOT NULL DEFAULT '',"
                            " state TEXT NOT NULL CHECK (state IN ('active', 'suspended')),"
                            " suspended_reason TEXT,"
                            " suspended_at BIGINT,"
                            " credit_limit BIGINT NOT NULL DEFAULT 0 CHECK (credit_limit >= 0),"
                            " last_contact_at BIGINT,"
                            " created_by TEXT NOT NULL DEFAULT '',"
                            " created_at BIGINT NOT NULL,"
                            " updated_at BIGINT NOT NULL)"),
             QStringLiteral("INSERT INTO shops (account_id, state, created_at, updated_at)"
                            " SELECT id, 'active', created_at, created_at FROM accounts WHERE name <> 'shop'"),
             QStringLiteral("CREATE INDEX wallet_ledger_statement ON wallet_ledger (account_id, mode, created_at, id)"),
             QStringLiteral("CREATE INDEX daily_totals_day ON daily_totals (ist_day, mode, account_id)"),
             QStringLiteral("CREATE TABLE fund_requests ("
                            " id %ID%,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " amount BIGINT NOT NULL CHECK (amount > 0),"
                            " method TEXT NOT NULL CHECK (method IN ('upi', 'bank', 'cash_deposit')),"
                            " utr TEXT NOT NULL,"
                            " reference_id TEXT,"
                            " note TEXT NOT NULL DEFAULT '',"
                            " slip_type TEXT NOT NULL DEFAULT ''"
                            " CHECK (slip_type IN ('', 'image/png', 'image/jpeg')),"
                            " state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),"
                            " reason TEXT,"
                            " decided_by TEXT,"
                            " decided_at BIGINT,"
                            " ledger_id BIGINT,"
                            " created_at BIGINT NOT NULL,"
                            " UNIQUE (account_id, reference_id))"),
             QStringLiteral("CREATE INDEX fund_requests_utr ON fund_requests (utr)"),
             QStringLiteral("CREATE INDEX fund_requests_state ON fund_requests (state, id)"),
             QStringLiteral("CREATE TABLE fund_request_slips ("
                            " fund_request_id BIGINT PRIMARY KEY REFERENCES fund_requests(id),"
                            " data TEXT NOT NULL)"),
         }},
        // Issue 30, the shop's side: fund requests this server sent to a RechargeDesk upstream (its distributor)
        // for an account's live wallet, with the slip (base64) kept until the upstream took it
        // (UpstreamFundRequestRepository). reference_id is the idempotency key sent with it (fr-<server id>-<id>), so a
        // request sent again is the same one there; remote_id is the upstream's id once it answered. credited_at is
        // set once, in the same transaction as the local live wallet's ledger row. next_check_at is the follow-up's
        // next send or poll (UTC ms; 0: none), moved past a lease when a server claims it. Money paise, times UTC ms.
        {21,
         {
             QStringLiteral("CREATE TABLE upstream_fund_requests ("
                            " id %ID%,"
                            " account_id BIGINT NOT NULL REFERENCES accounts(id),"
                            " upstream_name TEXT NOT NULL,"
                            " reference_id TEXT NOT NULL UNIQUE,"
                            " remote_id BIGINT,"
                            " amount BIGINT NOT NULL CHECK (amount > 0),"
                            " method TEXT NOT NULL CHECK (method IN ('upi', 'bank', 'cash_deposit')),"
                            " utr TEXT NOT NULL,"
                            " note TEXT NOT NULL DEFAULT '',"
                            " slip_type TEXT NOT NULL DEFAULT '',"
                            " slip_data TEXT,"
                            " state TEXT NOT NULL"
                            " CHECK (state IN ('sending', 'pending', 'approved', 'rejected', 'refused')),"
                            " reason TEXT,"
                            " credited_at BIGINT,"
                            " ledger_id BIGINT,"
                            " next_check_at BIGINT NOT NULL DEFAULT 0,"
                            " attempts INTEGER NOT NULL DEFAULT 0,"
                            " actor TEXT NOT NULL,"
                            " created_at BIGINT NOT NULL,"
                            " updated_at BIGINT NOT NULL)"),
             QStringLiteral("CREATE INDEX upstream_fund_requests_listing ON upstream_fund_requests (account_id,"
                            " upstream_name, id)"),
             QStringLiteral("CREATE INDEX upstream_fund_requests_due ON upstream_fund_requests (next_check_at)"
                            " WHERE next_check_at > 0"),
             QStringLiteral("CREATE INDEX upstream_fund_requests_remote ON upstream_fund_requests (upstream_name,"
                            " remote_id) WHERE remote_id IS NOT NULL"),
         }},
    };
    return migrations;
}

SchemaCurrency schemaCurrency(const QSet<int> &applied)
{
    QSet<int> known;
    for (const Migration &migration : allMigrations())
        known.insert(migration.version);
    if (!(applied - known).isEmpty())
        return SchemaCurrency::Ahead;
    return applied.size() == known.size() ? SchemaCurrency::Current : SchemaCurrency::Behind;
}
