// `rechargedesk upstream set|show|check|clear`: the upstream live sales go through (issue 11), on
// the same database the server uses (the server reads it at every sale, so changes apply at once).
#include "aadhaar/aadhaarmodule.h"
#include "aadhaar/aadhaarvault.h"
#include "apierror.h"
#include "clock.h"
#include "commandline.h"
#include "services/commitbatcher.h"
#include "services/settlementservice.h"
#include "store/database.h"
#include "upstream/upstreamdispatcher.h"
#include "upstream/upstreamsettingsrepository.h"

#include <QEventLoop>
#include <QFile>

#include <cstdio>
#include <functional>

namespace {

/// The database and the vault of the store options; prints why and returns false on failure.
struct UpstreamStore
{
    std::unique_ptr<Database> db;
    std::optional<AadhaarVault> vault;
};

std::optional<UpstreamStore> openStore(const QCommandLineParser &parser)
{
    UpstreamStore store;
    store.db = CommandLine::openDatabase(parser);
    if (!store.db)
        return std::nullopt;
    store.vault = CommandLine::openVault(parser);
    if (!store.vault)
        return std::nullopt;
    return store;
}

void printSettings(UpstreamSettingsRepository &repository)
{
    const std::optional<UpstreamSettings> s = repository.load();
    if (!s) {
        CommandLine::out(QStringLiteral("No upstream is configured: live sales answer 503 no_live_provider."));
        CommandLine::out(QStringLiteral("Set one: rechargedesk upstream set --url BASE_URL --key-id ID "
                                        "--key-secret-file FILE"));
        return;
    }
    const UpstreamHealth h = repository.health();
    CommandLine::out(QStringLiteral("Upstream: ") + s->baseUrl);
    CommandLine::out(QStringLiteral("  key_id: ") + s->keyId + QStringLiteral(" (secret stored sealed)"));
    CommandLine::out(QStringLiteral("  webhook_password: %1, webhook secret: %2")
                         .arg(s->webhookPassword.isEmpty() ? QStringLiteral("not set") : QStringLiteral("set"),
                              s->webhookSecret.isEmpty() ? QStringLiteral("not set") : QStringLiteral("set")));
    QString state = h.state;
    if (h.sinceMs > 0 && h.state != QLatin1String("unknown"))
        state += QStringLiteral(" since %1 IST").arg(IstTime::formatMs(h.sinceMs));
    CommandLine::out(QStringLiteral("  state: ") + state);
    CommandLine::out(
        QStringLiteral("  last contact: ") +
        (h.lastContactMs > 0 ? IstTime::formatMs(h.lastContactMs) + QStringLiteral(" IST") : QStringLiteral("never")));
    if (!h.lastError.isEmpty())
        CommandLine::out(QStringLiteral("  last error: ") + h.lastError);
    CommandLine::out(QStringLiteral("  server id (reference_id rd-%1-<transaction_id>)").arg(repository.serverId()));
}

int set(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Sets the upstream provider live sales go through."));
    parser.addOption(
        {QStringLiteral("url"), QStringLiteral("Upstream API address ending in /api/v1."), QStringLiteral("BASE_URL")});
    parser.addOption({QStringLiteral("key-id"), QStringLiteral("Key id at the upstream."), QStringLiteral("ID")});
    parser.addOption({QStringLiteral("key-secret-file"), QStringLiteral("File holding the key secret (never argv)."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("webhook-password"),
                      QStringLiteral("data.webhook_password the upstream sends to /hooks/upstream."),
                      QStringLiteral("P")});
    parser.addOption({QStringLiteral("webhook-secret-file"),
                      QStringLiteral("File holding the upstream's Standard Webhooks secret (whsec_...)."),
                      QStringLiteral("FILE")});
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    if (!parser.isSet(QStringLiteral("url")) || !parser.isSet(QStringLiteral("key-id")) ||
        !parser.isSet(QStringLiteral("key-secret-file")))
        return CommandLine::usageError(
            QStringLiteral("upstream set needs --url BASE_URL --key-id ID --key-secret-file FILE"));
    const std::optional<QString> secret =
        CommandLine::readSecretFile(parser.value(QStringLiteral("key-secret-file")), "--key-secret-file");
    if (!secret)
        return 2;
    QString webhookSecret;
    if (parser.isSet(QStringLiteral("webhook-secret-file"))) {
        const std::optional<QString> text =
            CommandLine::readSecretFile(parser.value(QStringLiteral("webhook-secret-file")), "--webhook-secret-file");
        if (!text)
            return 2;
        webhookSecret = *text;
    }
    UpstreamSettings settings;
    try {
        settings =
            UpstreamSettings::checked(parser.value(QStringLiteral("url")), parser.value(QStringLiteral("key-id")),
                                      *secret, parser.value(QStringLiteral("webhook-password")), webhookSecret);
    } catch (const ApiError &e) {
        return CommandLine::usageError(e.description());
    }
    std::optional<UpstreamStore> store = openStore(parser);
    if (!store)
        return 1;
    SystemClock clock;
    UpstreamSettingsRepository repository(*store->db, &*store->vault);
    repository.save(settings, clock.nowMs());
    printSettings(repository);
    CommandLine::out(QStringLiteral("Try it: rechargedesk upstream check"));
    return 0;
}

/// A subcommand that needs only the store: parses the store options and runs `action` on the
/// database and vault. Exit 1 when the store cannot be opened, else what `action` returns.
int withStore(const QStringList &arguments, const QString &description,
              const std::function<int(UpstreamStore &, UpstreamSettingsRepository &)> &action)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(description);
    CommandLine::addStoreOptions(parser);
    CommandLine::process(parser, arguments);
    std::optional<UpstreamStore> store = openStore(parser);
    if (!store)
        return 1;
    UpstreamSettingsRepository repository(*store->db, &*store->vault);
    return action(*store, repository);
}

int show(const QStringList &arguments)
{
    return withStore(arguments, QStringLiteral("Shows the upstream (never its secrets)."),
                     [](UpstreamStore &, UpstreamSettingsRepository &repository) {
                         printSettings(repository);
                         return 0;
                     });
}

int clear(const QStringList &arguments)
{
    return withStore(arguments, QStringLiteral("Removes the upstream; live sales are refused until one is set."),
                     [](UpstreamStore &, UpstreamSettingsRepository &repository) {
                         repository.clear(SystemClock().nowMs());
                         CommandLine::out(QStringLiteral(
                             "Upstream removed: live sales answer 503 no_live_provider until one is set."));
                         return 0;
                     });
}

int check(const QStringList &arguments)
{
    return withStore(
        arguments,
        QStringLiteral("Makes one harmless authenticated call (a plans lookup) and says whether URL and key work."),
        [](UpstreamStore &store, UpstreamSettingsRepository &repository) {
            const std::optional<UpstreamSettings> settings = repository.load();
            if (!settings) {
                CommandLine::out(QStringLiteral("No upstream is configured (rechargedesk upstream set ...)."));
                return 1;
            }
            SystemClock clock;
            SettlementService settlements(*store.db, clock);
            CommitBatcher batcher(*store.db);
            UpstreamDispatcher dispatcher(*store.db, batcher, clock, settlements, &*store.vault, UpstreamTiming{});
            QEventLoop loop;
            bool ok = false;
            dispatcher.check(*settings, [&](const UpstreamDispatcher::CheckResult &r) {
                ok = r.ok;
                CommandLine::out(r.message);
                loop.quit();
            });
            loop.exec();
            return ok ? 0 : 1;
        });
}

} // namespace

int runUpstream(const QStringList &arguments)
{
    const QString action = arguments.value(1);
    const QStringList rest = QStringList{QStringLiteral("rechargedesk upstream ") + action} + arguments.mid(2);
    if (action == QLatin1String("set"))
        return set(rest);
    if (action == QLatin1String("show"))
        return show(rest);
    if (action == QLatin1String("check"))
        return check(rest);
    if (action == QLatin1String("clear"))
        return clear(rest);
    if (action == QLatin1String("--help") || action == QLatin1String("-h") || action.isEmpty()) {
        CommandLine::out(
            QStringLiteral("Usage: rechargedesk upstream set|show|check|clear [options]  (--help on each)"));
        return action.isEmpty() ? 2 : 0;
    }
    return CommandLine::usageError(
        QStringLiteral("unknown upstream action \"%1\"; use set, show, check or clear").arg(action));
}
