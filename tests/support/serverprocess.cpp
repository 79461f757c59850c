#include "serverprocess.h"

#include "httpclient.h"
#include "teststore.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QFile>
#include <QRegularExpression>
#include <QTimer>

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
    // Waits in an event loop, not with waitForFinished(): servers of this test process (a stand-in upstream, a fault
    // proxy) must keep answering the command (`upstream set` reads the upstream's OpenAPI document, say).
    QProcess process;
    QEventLoop loop;
    QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&process, &QProcess::errorOccurred, &loop, [&loop](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            loop.quit();
    });
    QTimer::singleShot(30'000, &loop, &QEventLoop::quit);
    process.start(binary(), arguments);
    if (process.state() != QProcess::NotRunning)
        loop.exec();
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished(5'000);
    }
    *output = QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError());
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

bool ServerProcess::runCliOn(const TestStore &store, const QStringList &arguments, QString *output, QString *error)
{
    const int exitCode = runCli(arguments + store.arguments(), output);
    if (exitCode == 0)
        return true;
    *error = QStringLiteral("rechargedesk %1 exited with %2:\n%3")
                 .arg(arguments.join(QLatin1Char(' ')), QString::number(exitCode), *output);
    return false;
}

bool ServerProcess::createKey(const TestStore &store, const QStringList &options, QString *keyId, QString *secret,
                              QString *error)
{
    QString output;
    if (!runCliOn(store,
                  QStringList{QStringLiteral("keys"), QStringLiteral("create"), QStringLiteral("--name"),
                              QStringLiteral("tests")} +
                      options,
                  &output, error))
        return false;
    static const QRegularExpression pattern(QStringLiteral("key_id: (\\S+)\\s+key_secret: (\\S+)"));
    const QRegularExpressionMatch match = pattern.match(output);
    if (!match.hasMatch()) {
        *error = QStringLiteral("keys create printed no key:\n") + output;
        return false;
    }
    *keyId = match.captured(1);
    *secret = match.captured(2);
    return true;
}

QByteArray ServerProcess::createTestAdminKey(const TestStore &store)
{
    QString keyId;
    QString secret;
    QString error;
    if (!createKey(
            store,
            {QStringLiteral("--mode"), QStringLiteral("test"), QStringLiteral("--scope"), QStringLiteral("admin")},
            &keyId, &secret, &error))
        return {};
    return HttpClient::basic(keyId, secret);
}
