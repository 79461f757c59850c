#include "serverprocess.h"

#include "httpclient.h"
#include "teststore.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QRegularExpression>

QString ServerProcess::binary()
{
    return QStringLiteral(RECHARGEDESK_BINARY);
}

bool ServerProcess::start(const QString &dataDir, const QStringList &extraArguments, QString *error)
{
    return startWith(QStringList{QStringLiteral("--data-dir"), dataDir} + extraArguments, error);
}

bool ServerProcess::start(const TestStore &store, const QStringList &extraArguments, QString *error)
{
    return startWith(store.arguments() + extraArguments, error);
}

bool ServerProcess::startWithConfig(const QString &configFile, const QStringList &extraArguments, QString *error)
{
    return startWith(QStringList{QStringLiteral("--config"), configFile} + extraArguments, error);
}

QString ServerProcess::secretInKeyFile(const QString &path)
{
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return QString();
    static const QRegularExpression secret(QStringLiteral("^key_secret: (\\S+)$"), QRegularExpression::MultilineOption);
    return secret.match(QString::fromUtf8(file.readAll())).captured(1);
}

bool ServerProcess::startWith(const QStringList &arguments, QString *error)
{
    return launch(arguments, error) && waitUntilListening(error);
}

bool ServerProcess::launch(const QStringList &arguments, QString *error)
{
    m_process.setProgram(binary());
    m_process.setArguments(
        QStringList{QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")} + arguments);
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    m_process.start();
    if (!m_process.waitForStarted(10'000)) {
        *error = m_process.errorString();
        return false;
    }
    return true;
}

bool ServerProcess::waitUntilListening(QString *error)
{
    static const QRegularExpression listening(QStringLiteral("listening on (https?://[^/\\s]+)"));
    static const QRegularExpression keyId(QStringLiteral("key_id: (\\S+)"));
    static const QRegularExpression keyFile(QStringLiteral("key_file: ([^\\n]+)"));
    QString output;
    QDeadlineTimer deadline(15'000);
    while (!deadline.hasExpired()) {
        m_process.waitForReadyRead(200);
        output += QString::fromUtf8(m_process.readAllStandardOutput());
        const QRegularExpressionMatch match = listening.match(output);
        // serve prints the listening line last, after the key lines.
        if (match.hasMatch()) {
            m_url = QUrl(match.captured(1));
            m_startupOutput = output;
            m_keyId = keyId.match(output).captured(1);
            m_keyFile = keyFile.match(output).captured(1).trimmed();
            m_keySecret = secretInKeyFile(m_keyFile);
            return true;
        }
        if (m_process.state() == QProcess::NotRunning)
            break;
    }
    *error = output + QString::fromUtf8(m_process.readAllStandardError());
    return false;
}

void ServerProcess::kill()
{
    m_process.kill();
    m_process.waitForFinished(10'000);
}

int ServerProcess::terminate()
{
    m_process.terminate();
    m_process.waitForFinished(10'000);
    return m_process.exitCode();
}

QString ServerProcess::readOutput()
{
    return QString::fromUtf8(m_process.readAllStandardOutput() + m_process.readAllStandardError());
}

int ServerProcess::runCli(const QStringList &arguments, QString *output)
{
    QProcess process;
    process.start(binary(), arguments);
    process.waitForFinished(30'000);
    *output = QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError());
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

QByteArray ServerProcess::createTestAdminKey(const TestStore &store)
{
    QString output;
    const int exitCode = runCli(QStringList{QStringLiteral("keys"), QStringLiteral("create"), QStringLiteral("--name"),
                                            QStringLiteral("tests"), QStringLiteral("--mode"), QStringLiteral("test"),
                                            QStringLiteral("--scope"), QStringLiteral("admin")} +
                                    store.arguments(),
                                &output);
    static const QRegularExpression pattern(QStringLiteral("key_id: (\\S+)\\s+key_secret: (\\S+)"));
    const QRegularExpressionMatch match = pattern.match(output);
    if (exitCode != 0 || !match.hasMatch())
        return {};
    return HttpClient::basic(match.captured(1), match.captured(2));
}
