#include "apierror.h"
#include "auth/apikeyservice.h"
#include "clock.h"
#include "commandline.h"
#include "store/database.h"

#include <QDateTime>

namespace {

int createKey(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Creates an API key and prints its id and secret, once."));
    parser.addOption(
        {QStringLiteral("name"), QStringLiteral("What the key is for, e.g. \"counter 1\"."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("mode"), QStringLiteral("test (sandbox) or live."), QStringLiteral("MODE")});
    parser.addOption(
        {QStringLiteral("scope"), QStringLiteral("pos (sales) or admin (everything)."), QStringLiteral("SCOPE")});
    parser.addOption(
        {QStringLiteral("account"), QStringLiteral("Account (shop) name; default \"shop\"."), QStringLiteral("NAME")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    const std::optional<Mode> mode = ModeNames::modeFromString(parser.value(QStringLiteral("mode")));
    const std::optional<Scope> scope = ModeNames::scopeFromString(parser.value(QStringLiteral("scope")));
    if (!parser.isSet(QStringLiteral("name")))
        return CommandLine::usageError(QStringLiteral("keys create needs --name NAME"));
    if (!mode)
        return CommandLine::usageError(QStringLiteral("keys create needs --mode test or --mode live"));
    if (!scope)
        return CommandLine::usageError(QStringLiteral("keys create needs --scope pos or --scope admin"));
    std::unique_ptr<Database> db = CommandLine::openDatabase(parser);
    if (!db)
        return 1;
    SystemClock clock;
    try {
        const CreatedKey key =
            ApiKeyService(*db, clock)
                .create(parser.value(QStringLiteral("account")), parser.value(QStringLiteral("name")), *mode, *scope);
        CommandLine::out(QStringLiteral("key_id: ") + key.keyId);
        CommandLine::out(QStringLiteral("key_secret: ") + key.secret);
    } catch (const ApiError &e) {
        return CommandLine::usageError(e.description());
    }
    return 0;
}

int listKeys(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Lists API keys (never their secrets)."));
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    std::unique_ptr<Database> db = CommandLine::openDatabase(parser);
    if (!db)
        return 1;
    SystemClock clock;
    const QList<ApiKeyRow> keys = ApiKeyService(*db, clock).list();
    CommandLine::out(QStringLiteral("%1 %2 %3 %4 %5 %6")
                         .arg(QStringLiteral("KEY_ID"), -20)
                         .arg(QStringLiteral("MODE"), -4)
                         .arg(QStringLiteral("SCOPE"), -5)
                         .arg(QStringLiteral("STATE"), -7)
                         .arg(QStringLiteral("ACCOUNT"), -12)
                         .arg(QStringLiteral("NAME")));
    for (const ApiKeyRow &key : keys) {
        CommandLine::out(QStringLiteral("%1 %2 %3 %4 %5 %6")
                             .arg(key.keyId, -20)
                             .arg(ModeNames::mode(key.mode), -4)
                             .arg(ModeNames::scope(key.scope), -5)
                             .arg(key.revokedAtMs ? QStringLiteral("revoked") : QStringLiteral("active"), -7)
                             .arg(key.accountName, -12)
                             .arg(key.name));
    }
    return 0;
}

int revokeKey(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Revokes an API key; requests with it get 403 from then on."));
    parser.addPositionalArgument(QStringLiteral("KEY_ID"), QStringLiteral("The key to revoke."));
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    if (parser.positionalArguments().size() != 1)
        return CommandLine::usageError(QStringLiteral("keys revoke needs exactly one KEY_ID"));
    std::unique_ptr<Database> db = CommandLine::openDatabase(parser);
    if (!db)
        return 1;
    SystemClock clock;
    const QString keyId = parser.positionalArguments().constFirst();
    if (!ApiKeyService(*db, clock).revoke(keyId)) {
        std::fprintf(stderr, "rechargedesk: no active key %s\n", qPrintable(keyId));
        return 1;
    }
    CommandLine::out(QStringLiteral("revoked ") + keyId);
    return 0;
}

} // namespace

int runKeys(const QStringList &arguments)
{
    const QString action = arguments.value(1);
    const QStringList rest = QStringList{QStringLiteral("rechargedesk keys ") + action} + arguments.mid(2);
    if (action == QLatin1String("create"))
        return createKey(rest);
    if (action == QLatin1String("list"))
        return listKeys(rest);
    if (action == QLatin1String("revoke"))
        return revokeKey(rest);
    if (action == QLatin1String("--help") || action == QLatin1String("-h") || action.isEmpty()) {
        CommandLine::out(QStringLiteral("Usage: rechargedesk keys create|list|revoke [options]  (--help on each)"));
        return action.isEmpty() ? 2 : 0;
    }
    return CommandLine::usageError(
        QStringLiteral("unknown keys action \"%1\"; use create, list or revoke").arg(action));
}
