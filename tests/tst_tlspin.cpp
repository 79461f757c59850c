// Issue 12: the terminal's certificate pin (core/tlspin) and ApiClient's use of it against a real HTTPS server.

#include "apiclient.h"
#include "testserver.h"
#include "tlspin.h"
#include "tlstestsupport.h"

#include <QCryptographicHash>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

class TestTlsPin final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void normalised_data();
    void normalised();
    void fingerprintIsColonHexOfTheDerSha256();
    void judge();
    void pinIsStoredInTerminalIni();
    void firstContactAsksThenPinnedCertificateIsTrusted();
    void changedCertificateIsRefused();

private:
    QTemporaryDir m_tlsHome;
    QSslCertificate m_certificate;
    std::unique_ptr<TestServer> m_server;
};

void TestTlsPin::initTestCase()
{
    m_server = std::make_unique<TestServer>(tlsServerOptions(m_tlsHome.path(), &m_certificate));
}

void TestTlsPin::normalised_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    const QString canonical = unrelatedFingerprint();
    QTest::newRow("canonical") << canonical << canonical;
    QTest::newRow("lower case") << canonical.toLower() << canonical;
    QTest::newRow("no colons") << QString(canonical).remove(QLatin1Char(':')) << canonical;
    QTest::newRow("spaces") << QString(canonical).replace(QLatin1Char(':'), QLatin1Char(' ')) << canonical;
    QTest::newRow("too short") << canonical.left(92) << QString();
    QTest::newRow("not hex") << QString(canonical).replace(0, 1, QLatin1Char('g')) << QString();
    QTest::newRow("empty") << QString() << QString();
}

void TestTlsPin::normalised()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QCOMPARE(TlsPin::normalised(input), expected);
}

void TestTlsPin::fingerprintIsColonHexOfTheDerSha256()
{
    const QByteArray digest = QCryptographicHash::hash(m_certificate.toDer(), QCryptographicHash::Sha256);
    QCOMPARE(TlsPin::fingerprint(m_certificate), QString::fromLatin1(digest.toHex(':').toUpper()));
    QVERIFY(TlsPin::fingerprint(QSslCertificate()).isEmpty());
}

void TestTlsPin::judge()
{
    const QList<QSslError> selfSigned{QSslError(QSslError::SelfSignedCertificate, m_certificate)};
    QCOMPARE(TlsPin().judge(m_certificate, selfSigned), TlsPin::Verdict::Unpinned);
    QCOMPARE(TlsPin().judge(m_certificate, {}), TlsPin::Verdict::Trusted); // a CA vouched, no pin yet
    const TlsPin pinned(TlsPin::fingerprint(m_certificate).toLower());
    QCOMPARE(pinned.judge(m_certificate, selfSigned), TlsPin::Verdict::Trusted);
    const TlsPin other(unrelatedFingerprint());
    QCOMPARE(other.judge(m_certificate, selfSigned), TlsPin::Verdict::Changed);
    QCOMPARE(other.judge(m_certificate, {}), TlsPin::Verdict::Changed); // a pin beats any CA
}

void TestTlsPin::pinIsStoredInTerminalIni()
{
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("terminal.ini"));
    QVERIFY(TlsPin::readPin(ini).isEmpty());
    QVERIFY(TlsPin::writePin(ini, unrelatedFingerprint().toLower()));
    QCOMPARE(TlsPin::readPin(ini), unrelatedFingerprint());
    QSettings settings(ini, QSettings::IniFormat);
    QCOMPARE(settings.value(QStringLiteral("server/tls_fingerprint_sha256")).toString(), unrelatedFingerprint());
}

void TestTlsPin::firstContactAsksThenPinnedCertificateIsTrusted()
{
    const CreatedKey key = m_server->createKeyPair(Mode::Test, Scope::Pos);
    ApiClient api(m_server->baseUrl(), key.keyId, key.secret);
    QSignalSpy asks(&api, &ApiClient::certificateNeedsConfirmation);

    const ApiResult first = getThrough(api, QStringLiteral("/api/v1/wallet"));
    QVERIFY(!first.ok());
    QCOMPARE(first.httpStatus, 0);
    QCOMPARE(first.error->reason(), QStringLiteral("certificate_not_pinned"));
    QVERIFY(first.error->description().contains(TlsPin::fingerprint(m_certificate)));
    QCOMPARE(asks.size(), 1);
    QCOMPARE(asks.at(0).at(0).toString(), TlsPin::fingerprint(m_certificate));

    api.setPinnedFingerprint(asks.at(0).at(0).toString());
    const ApiResult pinned = getThrough(api, QStringLiteral("/api/v1/wallet"));
    QVERIFY2(pinned.ok(), qPrintable(pinned.error ? pinned.error->description() : QString()));
    QCOMPARE(pinned.httpStatus, 200);
    QCOMPARE(asks.size(), 1);
}

void TestTlsPin::changedCertificateIsRefused()
{
    const CreatedKey key = m_server->createKeyPair(Mode::Test, Scope::Pos);
    ApiClient api(m_server->baseUrl(), key.keyId, key.secret);
    api.setPinnedFingerprint(unrelatedFingerprint());
    QSignalSpy changed(&api, &ApiClient::certificateChanged);
    QSignalSpy asks(&api, &ApiClient::certificateNeedsConfirmation);

    const ApiResult result = getThrough(api, QStringLiteral("/api/v1/wallet"));
    QVERIFY(!result.ok());
    QCOMPARE(result.httpStatus, 0);
    QCOMPARE(result.error->reason(), QStringLiteral("certificate_changed"));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).toString(), unrelatedFingerprint());
    QCOMPARE(changed.at(0).at(1).toString(), TlsPin::fingerprint(m_certificate));
    QCOMPARE(asks.size(), 0);
}

QTEST_MAIN(TestTlsPin)
#include "tst_tlspin.moc"
