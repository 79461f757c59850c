// Raw SQLite durable-commit baseline for docs/benchmarks.md (issue 2, item 7).
//
// Creates the product's wallet and transaction tables (same columns, constraints and indexes as
// migration 1 in backend/store/migrations.cpp), opens them in WAL mode with synchronous=FULL and
// foreign keys on, then times commits of one sale each:
//
//   BEGIN IMMEDIATE; INSERT transactions; UPDATE wallets (debit); INSERT wallet_ledger; COMMIT
//
// Statements are prepared once and reused, so this is the cost of a durable commit with no
// server around it. With --threads N > 1 every thread has its own connection and they contend
// for the write lock (busy timeout 10 s, as the product sets), which is what N independent
// one-commit-per-request servers would see.
//
// Prints one line for the run script to parse:
//   RESULT name=baseline threads=T commits=N seconds=S commits_per_s=X p50_ms=A p90_ms=B p99_ms=C max_ms=D
// Latency is per commit, BEGIN IMMEDIATE to COMMIT returned (lock waits included).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sqlite3.h>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

const char *const kSchema[] = {
    "CREATE TABLE accounts ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " name TEXT NOT NULL UNIQUE,"
    " created_at BIGINT NOT NULL)",
    "CREATE TABLE wallets ("
    " account_id BIGINT NOT NULL REFERENCES accounts(id),"
    " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
    " balance BIGINT NOT NULL DEFAULT 0,"
    " PRIMARY KEY (account_id, mode))",
    "CREATE TABLE transactions ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
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
    " UNIQUE (account_id, reference_id))",
    "CREATE INDEX transactions_listing ON transactions (account_id, mode, created_at, id)",
    "CREATE INDEX transactions_status ON transactions (account_id, mode, status, created_at)",
    "CREATE TABLE wallet_ledger ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " account_id BIGINT NOT NULL REFERENCES accounts(id),"
    " mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),"
    " amount BIGINT NOT NULL,"
    " kind TEXT NOT NULL CHECK (kind IN ('topup', 'debit', 'refund', 'opening')),"
    " transaction_id BIGINT REFERENCES transactions(id),"
    " note TEXT NOT NULL DEFAULT '',"
    " actor TEXT NOT NULL DEFAULT '',"
    " created_at BIGINT NOT NULL)",
    "CREATE INDEX wallet_ledger_account ON wallet_ledger (account_id, mode, id)",
    "CREATE INDEX wallet_ledger_transaction ON wallet_ledger (transaction_id)",
    "INSERT INTO accounts (id, name, created_at) VALUES (1, 'bench', 0)",
    "INSERT INTO wallets (account_id, mode, balance) VALUES (1, 'test', 9000000000000000)",
};

const char kInsertTransaction[] =
    "INSERT INTO transactions (account_id, mode, type, operator_code, number, bill_amount, discount, paid,"
    " customer_email, status, redeem_code, reference_id, fingerprint, key_id, created_at, updated_at)"
    " VALUES (?, 'test', 'MOBILE', 'AT', ?, ?, ?, ?, '', 'SUCCESS', '', NULL, ?, ?, ?, ?)";
const char kDebitWallet[] =
    "UPDATE wallets SET balance = balance - ? WHERE account_id = ? AND mode = 'test' AND balance >= ?";
const char kInsertLedger[] = "INSERT INTO wallet_ledger (account_id, mode, amount, kind, transaction_id, note, actor,"
                             " created_at) VALUES (?, 'test', ?, 'debit', ?, '', '', ?)";

[[noreturn]] void die(sqlite3 *db, const char *what)
{
    std::fprintf(stderr, "sqlite_baseline: %s: %s\n", what, db ? sqlite3_errmsg(db) : "out of memory");
    std::exit(1);
}

void exec(sqlite3 *db, const char *sql)
{
    char *message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        std::fprintf(stderr, "sqlite_baseline: %s: %s\n", sql, message ? message : "?");
        std::exit(1);
    }
}

sqlite3 *openConnection(const std::string &path)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr) !=
        SQLITE_OK)
        die(db, "cannot open the database");
    sqlite3_busy_timeout(db, 10000);
    exec(db, "PRAGMA journal_mode=WAL");
    exec(db, "PRAGMA synchronous=FULL");
    exec(db, "PRAGMA foreign_keys=ON");
    return db;
}

sqlite3_stmt *prepare(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *statement = nullptr;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, nullptr) != SQLITE_OK)
        die(db, "cannot prepare");
    return statement;
}

void step(sqlite3 *db, sqlite3_stmt *statement, const char *what)
{
    if (sqlite3_step(statement) != SQLITE_DONE)
        die(db, what);
    sqlite3_reset(statement);
}

struct Worker
{
    std::vector<double> latenciesMs;
};

/// One thread: its own connection, commits until `deadline` or `iterations` commits.
void runWorker(const std::string &path, int index, long iterations, Clock::time_point deadline, Worker *out)
{
    sqlite3 *db = openConnection(path);
    sqlite3_stmt *begin = prepare(db, "BEGIN IMMEDIATE");
    sqlite3_stmt *commit = prepare(db, "COMMIT");
    sqlite3_stmt *insertTransaction = prepare(db, kInsertTransaction);
    sqlite3_stmt *debitWallet = prepare(db, kDebitWallet);
    sqlite3_stmt *insertLedger = prepare(db, kInsertLedger);
    out->latenciesMs.reserve(size_t(std::min<long>(iterations, 1'000'000)));

    const sqlite3_int64 bill = 1000;   // ₹10.00 in paise, as the wrk script sends
    const sqlite3_int64 discount = 20; // 2.0 % (Airtel)
    const sqlite3_int64 paid = bill - discount;
    const std::string fingerprint(64, 'f'); // the product stores a SHA-256 hex digest
    const std::string keyId = "test_benchbenchbench";
    for (long i = 0; i < iterations; ++i) {
        const auto start = Clock::now();
        if (start >= deadline)
            break;
        const sqlite3_int64 nowMs =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                .count();
        char number[16];
        std::snprintf(number, sizeof number, "98%08ld", (long(index) * 1'000'003L + i) % 100'000'000L);

        step(db, begin, "BEGIN IMMEDIATE");
        sqlite3_bind_int64(insertTransaction, 1, 1);
        sqlite3_bind_text(insertTransaction, 2, number, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(insertTransaction, 3, bill);
        sqlite3_bind_int64(insertTransaction, 4, discount);
        sqlite3_bind_int64(insertTransaction, 5, paid);
        sqlite3_bind_text(insertTransaction, 6, fingerprint.c_str(), -1, SQLITE_STATIC);
        sqlite3_bind_text(insertTransaction, 7, keyId.c_str(), -1, SQLITE_STATIC);
        sqlite3_bind_int64(insertTransaction, 8, nowMs);
        sqlite3_bind_int64(insertTransaction, 9, nowMs);
        step(db, insertTransaction, "INSERT transactions");
        const sqlite3_int64 transactionId = sqlite3_last_insert_rowid(db);

        sqlite3_bind_int64(debitWallet, 1, paid);
        sqlite3_bind_int64(debitWallet, 2, 1);
        sqlite3_bind_int64(debitWallet, 3, paid);
        step(db, debitWallet, "UPDATE wallets");
        if (sqlite3_changes(db) != 1)
            die(db, "the wallet debit changed no row");

        sqlite3_bind_int64(insertLedger, 1, 1);
        sqlite3_bind_int64(insertLedger, 2, -paid);
        sqlite3_bind_int64(insertLedger, 3, transactionId);
        sqlite3_bind_int64(insertLedger, 4, nowMs);
        step(db, insertLedger, "INSERT wallet_ledger");
        step(db, commit, "COMMIT");
        out->latenciesMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    for (sqlite3_stmt *statement : {begin, commit, insertTransaction, debitWallet, insertLedger})
        sqlite3_finalize(statement);
    sqlite3_close(db);
}

double percentile(const std::vector<double> &sorted, double p)
{
    if (sorted.empty())
        return 0;
    const size_t index = std::min(sorted.size() - 1, size_t(p / 100.0 * double(sorted.size())));
    return sorted[index];
}

void usage()
{
    std::fputs("usage: sqlite_baseline --db FILE [--threads N] [--seconds S] [--iterations N]\n"
               "  Times durable commits (WAL, synchronous=FULL) of one sale each: INSERT transactions,\n"
               "  UPDATE wallets, INSERT wallet_ledger. FILE must not exist (it is created and kept).\n"
               "  Runs until S seconds (default 5) or N commits per thread (default unlimited).\n",
               stderr);
}

} // namespace

int main(int argc, char **argv)
{
    std::string path;
    int threads = 1;
    double seconds = 5;
    long iterations = 1'000'000'000L;
    for (int i = 1; i < argc; ++i) {
        const bool hasValue = i + 1 < argc;
        if (!std::strcmp(argv[i], "--db") && hasValue) {
            path = argv[++i];
        } else if (!std::strcmp(argv[i], "--threads") && hasValue) {
            threads = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--seconds") && hasValue) {
            seconds = std::atof(argv[++i]);
        } else if (!std::strcmp(argv[i], "--iterations") && hasValue) {
            iterations = std::atol(argv[++i]);
        } else {
            usage();
            return 2;
        }
    }
    if (path.empty() || threads < 1 || threads > 1024 || seconds <= 0 || iterations < 1) {
        usage();
        return 2;
    }
    if (FILE *existing = std::fopen(path.c_str(), "rb")) {
        std::fclose(existing);
        std::fprintf(stderr, "sqlite_baseline: %s exists; give a new file\n", path.c_str());
        return 2;
    }

    sqlite3 *setup = openConnection(path);
    exec(setup, "BEGIN IMMEDIATE");
    for (const char *statement : kSchema)
        exec(setup, statement);
    exec(setup, "COMMIT");

    std::vector<Worker> workers(size_t(threads), Worker{});
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    {
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t)
            pool.emplace_back(runWorker, path, t, iterations, deadline, &workers[size_t(t)]);
        for (std::thread &thread : pool)
            thread.join();
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();

    std::vector<double> all;
    for (const Worker &worker : workers)
        all.insert(all.end(), worker.latenciesMs.begin(), worker.latenciesMs.end());
    std::sort(all.begin(), all.end());

    // Sanity: every commit is there and the wallet equals its opening balance minus the ledger.
    sqlite3_stmt *check = prepare(setup, "SELECT (SELECT COUNT(*) FROM transactions),"
                                         " (SELECT balance FROM wallets) - 9000000000000000,"
                                         " (SELECT COALESCE(SUM(amount), 0) FROM wallet_ledger)");
    if (sqlite3_step(check) != SQLITE_ROW)
        die(setup, "check query");
    const sqlite3_int64 rows = sqlite3_column_int64(check, 0);
    const sqlite3_int64 walletDelta = sqlite3_column_int64(check, 1);
    const sqlite3_int64 ledgerSum = sqlite3_column_int64(check, 2);
    sqlite3_finalize(check);
    sqlite3_close(setup);
    if (rows != sqlite3_int64(all.size()) || walletDelta != ledgerSum) {
        std::fprintf(stderr, "sqlite_baseline: check failed: %lld rows for %zu commits, wallet %lld vs ledger %lld\n",
                     static_cast<long long>(rows), all.size(), static_cast<long long>(walletDelta),
                     static_cast<long long>(ledgerSum));
        return 1;
    }

    std::printf("RESULT name=baseline threads=%d commits=%zu seconds=%.2f commits_per_s=%.0f p50_ms=%.3f p90_ms=%.3f "
                "p99_ms=%.3f max_ms=%.3f\n",
                threads, all.size(), elapsed, double(all.size()) / elapsed, percentile(all, 50), percentile(all, 90),
                percentile(all, 99), all.empty() ? 0.0 : all.back());
    return 0;
}
