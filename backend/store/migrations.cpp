#include "migrations.h"

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
        // MIGRATION 2 (aadhaar) goes here
        // MIGRATION 3 (webhooks) goes here
    };
    return migrations;
}
