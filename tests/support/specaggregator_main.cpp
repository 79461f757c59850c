// spec_aggregator: the stand-in aggregator of the tests (specaggregator.h) as a program, to try a shop against a
// service that speaks ../shared/spec/api-v1.md and nothing more, by hand:
//
//   spec_aggregator --listen 127.0.0.1:8790 --credential-file cred.txt
//       --webhook-url http://127.0.0.1:8080/hooks/upstream --webhook-password P
//   rechargedesk upstream set --url http://127.0.0.1:8790/api/v1 --credential-file cred.txt --webhook-password P
#include "specaggregator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>

#include <cstdio>

namespace {

int fail(const QString &text)
{
    std::fprintf(stderr, "spec_aggregator: %s\n", qPrintable(text));
    return 2;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "A stand-in aggregator speaking api-v1.md as written: an opaque credential, no status check, no "
        "de-duplication of reference_id, errors in its own format, plain webhook_password webhooks.\n"
        "A mobile or DTH number's last four digits choose the outcome: 0000 FAILED, 1111 PENDING then SUCCESS, "
        "2222 PENDING then FAILED, 4000 refused (400), 5030 HTTP 503, 7777 sold but answered 4 s late, "
        "8888 sold and the connection cut; anything else SUCCESS. Aadhaar OTP: 123456."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("listen"), QStringLiteral("Address and port (port 0: any free one)."),
                      QStringLiteral("HOST:PORT"), QStringLiteral("127.0.0.1:0")});
    parser.addOption({QStringLiteral("credential-file"),
                      QStringLiteral("File holding the API key credential (sent as \"Basic <credential>\")."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("webhook-url"), QStringLiteral("Where webhooks go (a shop's /hooks/upstream)."),
                      QStringLiteral("URL")});
    parser.addOption({QStringLiteral("webhook-password"), QStringLiteral("data.webhook_password of webhooks."),
                      QStringLiteral("P")});
    parser.process(app);

    QFile file(parser.value(QStringLiteral("credential-file")));
    if (!parser.isSet(QStringLiteral("credential-file")) || !file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("--credential-file FILE is required and must be readable"));
    const QString credential = QString::fromUtf8(file.readAll()).trimmed();
    const QString listen = parser.value(QStringLiteral("listen"));
    const qsizetype colon = listen.lastIndexOf(QLatin1Char(':'));
    bool portOk = false;
    const uint port = listen.mid(colon + 1).toUInt(&portOk);
    const QHostAddress address(listen.left(colon));
    if (credential.isEmpty() || colon < 0 || !portOk || port > 65535 || address.isNull())
        return fail(QStringLiteral("need a non-empty credential and --listen HOST:PORT"));

    SpecAggregator aggregator(credential);
    aggregator.setWebhook(QUrl(parser.value(QStringLiteral("webhook-url"))),
                          parser.value(QStringLiteral("webhook-password")));
    QString error;
    if (!aggregator.listen(address, quint16(port), &error))
        return fail(error);
    std::printf("spec aggregator listening on %s (base_url %s)\n", qPrintable(aggregator.url().toString()),
                qPrintable(aggregator.baseUrl().toString()));
    std::fflush(stdout);
    return app.exec();
}
