#include "auth/apikeyservice.h"
#include "clock.h"
#include "commandline.h"
#include "operatorcatalog.h"
#include "services/historyseeder.h"
#include "store/accountrepository.h"
#include "store/database.h"

#include <QElapsedTimer>

#include <cstdio>

namespace {

int seed(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Fills the database with two years of realistic sales history."));
    parser.addOption(
        {QStringLiteral("transactions"), QStringLiteral("How many sales (1 to 10000000)."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("mode"), QStringLiteral("Wallet mode to fill: test (default) or live."),
                      QStringLiteral("MODE"), QStringLiteral("test")});
    parser.addOption(
        {QStringLiteral("account"), QStringLiteral("Account name; default \"shop\"."), QStringLiteral("NAME")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    bool ok = false;
    const qint64 count = parser.value(QStringLiteral("transactions")).toLongLong(&ok);
    if (!ok || count < 1 || count > 10'000'000)
        return CommandLine::usageError(QStringLiteral("dev seed needs --transactions N with N from 1 to 10000000"));
    const std::optional<Mode> mode = ModeNames::modeFromString(parser.value(QStringLiteral("mode")));
    if (!mode)
        return CommandLine::usageError(QStringLiteral("--mode must be test or live"));
    std::unique_ptr<Database> db = CommandLine::openDatabase(parser);
    if (!db)
        return 1;
    SystemClock clock;
    QString account = parser.value(QStringLiteral("account"));
    if (account.isEmpty())
        account = ApiKeyService::defaultAccountName();
    std::optional<qint64> accountId = AccountRepository(*db).findAccount(account);
    if (!accountId) {
        // Creating a key is how accounts come to exist; the seed then needs no other set-up.
        const CreatedKey key =
            ApiKeyService(*db, clock).create(account, QStringLiteral("created by dev seed"), Mode::Test, Scope::Admin);
        CommandLine::out(QStringLiteral("created account \"%1\" with test admin key\n  key_id: %2\n  key_secret: %3")
                             .arg(account, key.keyId, key.secret));
        accountId = AccountRepository(*db).findAccount(account);
    }
    // Generated data can be regenerated: skip the per-commit fsync that real sales need.
    if (!db->isPostgres())
        db->execute(QStringLiteral("PRAGMA synchronous=OFF"));
    const OperatorCatalog catalog = OperatorCatalog::builtIn();
    QElapsedTimer timer;
    timer.start();
    HistorySeeder(*db, catalog)
        .seed(*accountId, *mode, count, clock.nowMs(),
              {QStringLiteral("Asha"), QStringLiteral("Ravi"), QStringLiteral("Imran"), QStringLiteral("Priya"),
               QString()},
              20261121, [](qint64 done, qint64 total) {
                  if (done == total || done % 100'000 == 0)
                      std::fprintf(stderr, "seeded %lld of %lld\n", done, total);
              });
    CommandLine::out(
        QStringLiteral("seeded %1 transactions in %2 s").arg(count).arg(double(timer.elapsed()) / 1000.0, 0, 'f', 1));
    return 0;
}

} // namespace

int runDev(const QStringList &arguments)
{
    const QString action = arguments.value(1);
    if (action == QLatin1String("seed"))
        return seed(QStringList{QStringLiteral("rechargedesk dev seed")} + arguments.mid(2));
    return CommandLine::usageError(
        QStringLiteral("unknown dev action \"%1\"; use: dev seed --transactions N").arg(action));
}
