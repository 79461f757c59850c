#include "privacyscan.h"

#include <QByteArrayList>
#include <QDirIterator>
#include <QFile>
#include <QLoggingCategory>

namespace {

QStringList g_log;
QtMessageHandler g_previousHandler = nullptr;

void captureMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    g_log.append(QString::fromLatin1(context.category ? context.category : "") + QLatin1Char(' ') + message);
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

QByteArray utf16Bytes(const QString &text, bool bigEndian)
{
    QByteArray bytes;
    for (const QChar c : text) {
        const char high = char(c.unicode() >> 8);
        const char low = char(c.unicode() & 0xff);
        bytes.append(bigEndian ? high : low);
        bytes.append(bigEndian ? low : high);
    }
    return bytes;
}

} // namespace

LogCapture::LogCapture()
{
    g_log.clear();
    g_previousHandler = qInstallMessageHandler(captureMessage);
    QLoggingCategory::setFilterRules(QStringLiteral("rechargedesk.*=true"));
}

LogCapture::~LogCapture()
{
    qInstallMessageHandler(g_previousHandler);
    QLoggingCategory::setFilterRules(QString());
}

QString LogCapture::text() const
{
    return g_log.join(u'\n');
}

QStringList filesContaining(const QString &dir, const QString &text)
{
    QStringList found;
    const QByteArrayList needles{text.toUtf8(), utf16Bytes(text, false), utf16Bytes(text, true)};
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    int files = 0;
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            found.append(path + QStringLiteral(" (unreadable)"));
            continue;
        }
        const QByteArray bytes = file.readAll();
        ++files;
        for (const QByteArray &needle : needles) {
            if (bytes.contains(needle))
                found.append(path);
        }
    }
    if (files == 0)
        found.append(QStringLiteral("(no files scanned)"));
    return found;
}
