// `rechargedesk transactions resolve`: a person ends a live sale still waiting on the upstream (issue 26, "Ending
// what is unknown"), on the database the server uses; the running server delivers its webhook from the outbox.
#include "apierror.h"
#include "clock.h"
#include "commandline.h"
#include "money.h"
#include "services/settlementservice.h"
#include "store/database.h"
#include "upstream/upstreamresolver.h"
#include "users/auditlog.h"

#include <cstdio>

namespace {

int resolve(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Ends a PENDING live sale by hand after checking the aggregator (its dashboard, statement or "
                       "support): SUCCESS keeps the debit, FAILED refunds the wallet once. Written to the audit log "
                       "with who and why; the shop's webhook tells its clients."));
    parser.addPositionalArgument(QStringLiteral("ID"), QStringLiteral("The sale's transaction_id."));
    parser.addOption({QStringLiteral("status"), QStringLiteral("SUCCESS (recharged) or FAILED (not recharged)."),
                      QStringLiteral("S")});
    parser.addOption(
        {QStringLiteral("note"), QStringLiteral("How you know (1 to 500 characters)."), QStringLiteral("TEXT")});
    parser.addOption({QStringLiteral("redeem-code"),
                      QStringLiteral("A voucher ended as SUCCESS: its code as the aggregator shows it."),
                      QStringLiteral("CODE")});
    parser.addOption(
        {QStringLiteral("by"), QStringLiteral("Who decided (default: the system user)."), QStringLiteral("NAME")});
    CommandLine::addAccountOptions(parser);
    CommandLine::process(parser, arguments);
    bool ok = false;
    const qint64 id = parser.positionalArguments().value(0).toLongLong(&ok);
    if (parser.positionalArguments().size() != 1 || !ok || id <= 0)
        return CommandLine::usageError(
            QStringLiteral("transactions resolve needs the sale's ID: transactions resolve ID --status SUCCESS|FAILED "
                           "--note TEXT"));
    UpstreamResolver::Decision decision;
    try {
        decision =
            UpstreamResolver::checked(parser.value(QStringLiteral("status")), parser.value(QStringLiteral("note")),
                                      parser.value(QStringLiteral("redeem-code")));
    } catch (const ApiError &e) {
        return CommandLine::usageError(QStringLiteral("--%1: %2").arg(e.field(), e.description()));
    }
    const std::optional<CommandLine::AccountStore> store = CommandLine::openAccount(parser);
    if (!store)
        return 1;
    SystemClock clock;
    const QString by = parser.value(QStringLiteral("by")).trimmed();
    const QString actor =
        QStringLiteral("cli:") + (by.isEmpty() ? qEnvironmentVariable("USER", QStringLiteral("unknown")) : by);
    try {
        SettlementService settlements(*store->db, clock);
        AuditLog audit(*store->db, clock);
        const StoredTransaction settled = UpstreamResolver(*store->db, settlements, audit)
                                              .resolve(store->accountId, id, decision, actor, clock.nowMs());
        CommandLine::out(
            QStringLiteral("Transaction %1 is now %2%3.")
                .arg(id)
                .arg(TransactionNames::status(settled.record.status),
                     decision.status == TransactionStatus::Failed
                         ? QStringLiteral("; %1 refunded to the live wallet").arg(Money::format(settled.record.paid))
                         : QString()));
    } catch (const ApiError &e) {
        std::fprintf(stderr, "rechargedesk: %s\n", qPrintable(e.description()));
        return 1;
    }
    return 0;
}

} // namespace

int runTransactions(const QStringList &arguments)
{
    const QString action = arguments.value(1);
    if (action == QLatin1String("resolve"))
        return resolve(QStringList{QStringLiteral("rechargedesk transactions resolve")} + arguments.mid(2));
    if (action == QLatin1String("--help") || action == QLatin1String("-h") || action.isEmpty()) {
        CommandLine::out(QStringLiteral("Usage: rechargedesk transactions resolve ID --status SUCCESS|FAILED --note "
                                        "TEXT [--by NAME]  (--help for more)"));
        return action.isEmpty() ? 2 : 0;
    }
    return CommandLine::usageError(QStringLiteral("unknown transactions action \"%1\"; use resolve").arg(action));
}
