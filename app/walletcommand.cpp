#include "apierror.h"
#include "auth/apikeyservice.h"
#include "clock.h"
#include "commandline.h"
#include "services/walletservice.h"
#include "store/accountrepository.h"
#include "store/database.h"

#include <QRegularExpression>

#include <cstdio>

namespace {

/// "500" or "500.50" rupees -> paise; nullopt otherwise.
std::optional<Paise> parseRupees(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^([0-9]{1,9})(?:\\.([0-9]{1,2}))?$"));
    const QRegularExpressionMatch match = pattern.match(text.trimmed());
    if (!match.hasMatch())
        return std::nullopt;
    const QString fraction = match.captured(2).leftJustified(2, QLatin1Char('0'));
    return match.captured(1).toLongLong() * Money::kPaisePerRupee + fraction.toLongLong();
}

int topup(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Credits a wallet; every top-up is a ledger row with who and why."));
    CommandLine::addModeOption(parser);
    parser.addOption(
        {QStringLiteral("amount"), QStringLiteral("Rupees, e.g. 5000 or 5000.50."), QStringLiteral("RUPEES")});
    parser.addOption({QStringLiteral("note"), QStringLiteral("Why (kept in the ledger)."), QStringLiteral("TEXT")});
    CommandLine::addAccountOptions(parser);
    CommandLine::process(parser, arguments);
    const std::optional<Mode> mode = CommandLine::requiredMode(parser, QStringLiteral("wallet topup"));
    if (!mode)
        return 2;
    const std::optional<Paise> amount = parseRupees(parser.value(QStringLiteral("amount")));
    if (!amount || *amount <= 0)
        return CommandLine::usageError(
            QStringLiteral("wallet topup needs --amount RUPEES, a positive amount such as 5000 or 5000.50"));
    if (parser.value(QStringLiteral("note")).trimmed().isEmpty())
        return CommandLine::usageError(QStringLiteral("wallet topup needs --note TEXT saying why"));
    const std::optional<CommandLine::AccountStore> store = CommandLine::openAccount(parser);
    if (!store)
        return 1;
    Database &db = *store->db;
    const qint64 account = store->accountId;
    SystemClock clock;
    const QString user = qEnvironmentVariable("USER", QStringLiteral("unknown"));
    try {
        const Paise balance = WalletService(db, clock).topup(
            account, *mode, *amount, parser.value(QStringLiteral("note")), QStringLiteral("cli:") + user);
        CommandLine::out(QStringLiteral("%1 wallet credited %2; balance %3")
                             .arg(ModeNames::mode(*mode), Money::format(*amount), Money::format(balance)));
    } catch (const ApiError &e) {
        return CommandLine::usageError(e.description());
    }
    return 0;
}

int show(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Shows wallet balances and checks them against the ledger."));
    CommandLine::addModesOption(parser);
    CommandLine::addAccountOptions(parser);
    CommandLine::process(parser, arguments);
    const std::optional<QList<Mode>> modes = CommandLine::modesOption(parser);
    if (!modes)
        return 2;
    const std::optional<CommandLine::AccountStore> store = CommandLine::openAccount(parser);
    if (!store)
        return 1;
    Database &db = *store->db;
    const qint64 account = store->accountId;
    SystemClock clock;
    WalletService wallets(db, clock);
    int status = 0;
    for (Mode mode : *modes) {
        const WalletSummary summary = wallets.summary(account, mode);
        const bool consistent = summary.balance == summary.ledgerSum;
        CommandLine::out(QStringLiteral("%1 wallet: %2%3")
                             .arg(ModeNames::mode(mode), Money::format(summary.balance),
                                  consistent ? QString()
                                             : QStringLiteral("  (LEDGER MISMATCH: ledger sums to %1)")
                                                   .arg(Money::format(summary.ledgerSum))));
        if (!consistent)
            status = 1;
    }
    return status;
}

} // namespace

int runWallet(const QStringList &arguments)
{
    const QString action = arguments.value(1);
    const QStringList rest = QStringList{QStringLiteral("rechargedesk wallet ") + action} + arguments.mid(2);
    if (action == QLatin1String("topup"))
        return topup(rest);
    if (action == QLatin1String("show"))
        return show(rest);
    if (action == QLatin1String("--help") || action == QLatin1String("-h") || action.isEmpty()) {
        CommandLine::out(QStringLiteral("Usage: rechargedesk wallet topup|show [options]  (--help on each)"));
        return action.isEmpty() ? 2 : 0;
    }
    return CommandLine::usageError(QStringLiteral("unknown wallet action \"%1\"; use topup or show").arg(action));
}
