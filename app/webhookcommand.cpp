// `rechargedesk webhook set|show|rotate-secret`: webhook endpoint settings on the same database
// the server uses (the server reads them at every delivery, so changes apply at once).
#include "apierror.h"
#include "auth/apikeyservice.h"
#include "clock.h"
#include "commandline.h"
#include "store/accountrepository.h"
#include "store/database.h"
#include "webhooks/webhookendpointservice.h"

#include <cstdio>

namespace {

/// The account's database and the vault that seals its endpoints' secrets (issue 12).
struct EndpointStore
{
    CommandLine::AccountStore account;
    std::optional<AadhaarVault> vault;
    SystemClock clock;

    /// Opens both; prints why and returns nullopt on failure.
    static std::optional<EndpointStore> open(const QCommandLineParser &parser)
    {
        std::optional<CommandLine::AccountStore> account = CommandLine::openAccount(parser);
        if (!account)
            return std::nullopt;
        std::optional<AadhaarVault> vault = CommandLine::openVault(parser);
        if (!vault)
            return std::nullopt;
        return EndpointStore{std::move(*account), std::move(vault), {}};
    }
    /// The service over this store (no server: no built-in inbox is created).
    WebhookEndpointService endpoints() { return WebhookEndpointService(*account.db, clock, &*vault, {}); }
};

void printEndpoint(const WebhookEndpointView &view)
{
    const WebhookEndpoint &e = view.endpoint;
    CommandLine::out(QStringLiteral("%1 webhook endpoint: %2%3")
                         .arg(ModeNames::mode(e.mode), e.url,
                              e.builtinInbox ? QStringLiteral(" (built-in inbox of the server)") : QString()));
    CommandLine::out(QStringLiteral("  webhook_password: ") + e.password);
    CommandLine::out(e.disabledAtMs ? QStringLiteral("  DISABLED: %1 (set it again to enable)").arg(e.disabledReason)
                                    : QStringLiteral("  enabled"));
    if (!e.previousSecret.isEmpty() && e.previousSecretExpiresAtMs > QDateTime::currentMSecsSinceEpoch())
        CommandLine::out(QStringLiteral("  secret rotation: the previous secret also signs until %1 IST")
                             .arg(IstTime::formatMs(e.previousSecretExpiresAtMs)));
    if (!view.shownSecret.isEmpty()) {
        CommandLine::out(QStringLiteral("Signing secret (Standard Webhooks; shown only now):"));
        CommandLine::out(QStringLiteral("  ") + view.shownSecret);
    }
}

int set(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Sets where webhooks of one mode go and their webhook_password."));
    CommandLine::addModeOption(parser);
    parser.addOption(
        {QStringLiteral("url"), QStringLiteral("Receiver URL, http:// or https://."), QStringLiteral("URL")});
    parser.addOption({QStringLiteral("password"), QStringLiteral("data.webhook_password sent in every event."),
                      QStringLiteral("TEXT")});
    CommandLine::addAccountOptions(parser);
    CommandLine::process(parser, arguments);
    const std::optional<Mode> mode = CommandLine::requiredMode(parser, QStringLiteral("webhook set"));
    if (!mode)
        return 2;
    std::optional<EndpointStore> store = EndpointStore::open(parser);
    if (!store)
        return 1;
    const qint64 account = store->account.accountId;
    try {
        const WebhookEndpointView view = store->endpoints().set(
            account, *mode, parser.value(QStringLiteral("url")).trimmed(), parser.value(QStringLiteral("password")));
        printEndpoint(view);
        if (view.shownSecret.isEmpty())
            CommandLine::out(
                QStringLiteral("  (signing secret unchanged; `rechargedesk webhook rotate-secret` makes a new one)"));
    } catch (const ApiError &e) {
        return CommandLine::usageError(e.description());
    }
    return 0;
}

int show(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Shows the webhook endpoints (never the signing secrets)."));
    CommandLine::addModesOption(parser);
    CommandLine::addAccountOptions(parser);
    CommandLine::process(parser, arguments);
    const std::optional<QList<Mode>> modes = CommandLine::modesOption(parser);
    if (!modes)
        return 2;
    std::optional<EndpointStore> store = EndpointStore::open(parser);
    if (!store)
        return 1;
    const qint64 account = store->account.accountId;
    WebhookEndpointService endpoints = store->endpoints();
    for (Mode mode : *modes) {
        if (const std::optional<WebhookEndpointView> view = endpoints.get(account, mode))
            printEndpoint(*view);
        else if (mode == Mode::Test)
            CommandLine::out(
                QStringLiteral("test webhook endpoint: the server's built-in inbox (/hooks/inbox), set up at"
                               " first use"));
        else
            CommandLine::out(
                QStringLiteral("live webhook endpoint: not set (rechargedesk webhook set --mode live ...)"));
    }
    return 0;
}

int rotateSecret(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Makes a new signing secret; the old one keeps signing for 24 hours."));
    CommandLine::addModeOption(parser);
    CommandLine::addAccountOptions(parser);
    CommandLine::process(parser, arguments);
    const std::optional<Mode> mode = CommandLine::requiredMode(parser, QStringLiteral("webhook rotate-secret"));
    if (!mode)
        return 2;
    std::optional<EndpointStore> store = EndpointStore::open(parser);
    if (!store)
        return 1;
    const qint64 account = store->account.accountId;
    try {
        printEndpoint(store->endpoints().rotateSecret(account, *mode));
    } catch (const ApiError &e) {
        std::fprintf(stderr, "rechargedesk: %s\n", qPrintable(e.description()));
        return 1;
    }
    return 0;
}

} // namespace

int runWebhook(const QStringList &arguments)
{
    const QString action = arguments.value(1);
    const QStringList rest = QStringList{QStringLiteral("rechargedesk webhook ") + action} + arguments.mid(2);
    if (action == QLatin1String("set"))
        return set(rest);
    if (action == QLatin1String("show"))
        return show(rest);
    if (action == QLatin1String("rotate-secret"))
        return rotateSecret(rest);
    if (action == QLatin1String("--help") || action == QLatin1String("-h") || action.isEmpty()) {
        CommandLine::out(
            QStringLiteral("Usage: rechargedesk webhook set|show|rotate-secret [options]  (--help on each)"));
        return action.isEmpty() ? 2 : 0;
    }
    return CommandLine::usageError(
        QStringLiteral("unknown webhook action \"%1\"; use set, show or rotate-secret").arg(action));
}
