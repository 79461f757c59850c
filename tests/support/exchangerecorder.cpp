#include "exchangerecorder.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

void ExchangeRecorder::record(const QByteArray &method, const QUrl &url, int status, const Headers &responseHeaders,
                              const QByteArray &body, const char *via)
{
    static const QString directory = qEnvironmentVariable("RECHARGEDESK_API_RECORD_DIR");
    if (directory.isEmpty() || status == 0)
        return;
    QJsonObject headers;
    for (const auto &[name, value] : responseHeaders)
        headers.insert(QString::fromLatin1(name).toLower(), QString::fromLatin1(value));
    const QString suite = QCoreApplication::applicationName();
    QJsonObject line{
        {QStringLiteral("suite"), suite},
        {QStringLiteral("function"), QString::fromLatin1(QTest::currentTestFunction())},
        {QStringLiteral("tag"), QString::fromLatin1(QTest::currentDataTag())},
        {QStringLiteral("method"), QString::fromLatin1(method)},
        {QStringLiteral("path"), url.path(QUrl::FullyEncoded)},
        {QStringLiteral("query"), url.query(QUrl::FullyEncoded)},
        {QStringLiteral("status"), status},
        {QStringLiteral("headers"), headers},
        // Latin-1 keeps every byte (a PNG too) and the checker turns it back into the exact bytes.
        {QStringLiteral("body_latin1"), QString::fromLatin1(body)},
    };
    if (via)
        line.insert(QStringLiteral("via"), QString::fromLatin1(via));
    QDir().mkpath(directory);
    QFile file(
        QDir(directory).filePath(QStringLiteral("%1-%2.jsonl").arg(suite).arg(QCoreApplication::applicationPid())));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append)) {
        qWarning("ExchangeRecorder: cannot write %s", qPrintable(file.fileName()));
        return;
    }
    file.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
}
