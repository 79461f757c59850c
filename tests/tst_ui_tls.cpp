// Issue 12: the terminal against an HTTPS shop server — first contact asks an admin to confirm the certificate's
// fingerprint and pins it in terminal.ini, a changed certificate is refused with an explanation, and plain
// http:// to a LAN address shows a warning banner. Offscreen, answering the real dialogs.

#include "backoffice/settingspage.h"
#include "mainwindow.h"
#include "terminalfixture.h"
#include "tlspin.h"
#include "tlstestsupport.h"

#include <QDir>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

namespace {

/// Saves a grab of `widget` when RECHARGEDESK_SHOTS_DIR is set (to look at the screens).
void shoot(QWidget &widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("RECHARGEDESK_SHOTS_DIR");
    if (!dir.isEmpty())
        widget.grab().save(QDir(dir).filePath(QStringLiteral("tls_%1.png").arg(name)));
}

/// The visible message box named `name` (nullptr when there is none).
QMessageBox *visibleBox(QWidget &window, const char *name)
{
    auto *box = window.findChild<QMessageBox *>(QLatin1String(name));
    return box && box->isVisible() ? box : nullptr;
}

QLabel *banner(QWidget &window)
{
    return window.findChild<QLabel *>(QStringLiteral("connectionBanner"));
}

/// GET path through the window's own ApiClient; returns the result.
ApiResult getThrough(MainWindow &window, const QString &path)
{
    return getThrough(window.context()->api(), path);
}

} // namespace

class TestUiTls final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void firstContactAsksAndPinsTheCertificate();
    void changedCertificateIsRefusedWithAnExplanation();
    void backOfficeShowsTheFingerprint();
    void plainHttpToLanAddressShowsBanner_data();
    void plainHttpToLanAddressShowsBanner();

private:
    TerminalOptions optionsFor(const QUrl &server, const QString &dir) const;

    QTemporaryDir m_tlsHome;
    QSslCertificate m_certificate;
    std::unique_ptr<TestServer> m_server;
    CreatedKey m_key;
};

void TestUiTls::initTestCase()
{
    QVERIFY(applyTerminalStyle());
    m_server = std::make_unique<TestServer>(tlsServerOptions(m_tlsHome.path(), &m_certificate));
    m_key = m_server->createKeyPair(Mode::Test, Scope::Admin);
}

TerminalOptions TestUiTls::optionsFor(const QUrl &server, const QString &dir) const
{
    TerminalOptions options;
    options.serverUrl = server;
    options.keyId = m_key.keyId;
    options.keySecret = m_key.secret;
    options.settingsPath = QDir(dir).filePath(QStringLiteral("terminal-preferences.ini"));
    options.idleLockSeconds = 600;
    return options;
}

void TestUiTls::firstContactAsksAndPinsTheCertificate()
{
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("terminal.ini"));
    const QString fingerprint = TlsPin::fingerprint(m_certificate);
    {
        MainWindow window(optionsFor(m_server->baseUrl(), dir.path()));
        window.resize(1366, 768);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(visibleBox(window, "tlsConfirmBox"), 15'000);
        QMessageBox *box = visibleBox(window, "tlsConfirmBox");
        QVERIFY2(box->text().contains(fingerprint), qPrintable(box->text()));
        QVERIFY(box->text().contains(m_server->baseUrl().authority()));
        shoot(*box, QStringLiteral("confirm"));
        QVERIFY(TlsPin::readPin(ini).isEmpty()); // nothing is pinned before the admin confirms

        auto *trust = box->findChild<QPushButton *>(QStringLiteral("tlsTrustButton"));
        QVERIFY(trust);
        QTest::mouseClick(trust, Qt::LeftButton);
        QTRY_COMPARE(TlsPin::readPin(ini), fingerprint);
        QVERIFY(!banner(window)->isVisible());
        const ApiResult wallet = getThrough(window, QStringLiteral("/api/v1/wallet"));
        QVERIFY2(wallet.ok(), qPrintable(wallet.error ? wallet.error->description() : QString()));
    }

    // The next start trusts the pinned certificate without asking.
    MainWindow again(optionsFor(m_server->baseUrl(), dir.path()));
    again.show();
    QCOMPARE(again.context()->api().tlsPin().pinned(), fingerprint);
    QVERIFY(getThrough(again, QStringLiteral("/api/v1/wallet")).ok());
    QVERIFY(!again.findChild<QMessageBox *>(QStringLiteral("tlsConfirmBox")));
    QVERIFY(!again.findChild<QMessageBox *>(QStringLiteral("tlsChangedBox")));
}

void TestUiTls::changedCertificateIsRefusedWithAnExplanation()
{
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("terminal.ini"));
    QVERIFY(TlsPin::writePin(ini, unrelatedFingerprint()));
    MainWindow window(optionsFor(m_server->baseUrl(), dir.path()));
    window.resize(1366, 768);
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(visibleBox(window, "tlsChangedBox"), 15'000);
    QMessageBox *box = visibleBox(window, "tlsChangedBox");
    const QString text = box->text();
    QVERIFY2(text.contains(QStringLiteral("certificate has changed")), qPrintable(text));
    QVERIFY(text.contains(unrelatedFingerprint()));                   // what was confirmed
    QVERIFY(text.contains(TlsPin::fingerprint(m_certificate)));       // what is presented now
    QVERIFY(text.contains(QStringLiteral("tls_fingerprint_sha256"))); // what to do
    QVERIFY(text.contains(QDir::toNativeSeparators(ini)));
    QVERIFY(banner(window)->isVisible());
    shoot(window, QStringLiteral("changed_window"));
    shoot(*box, QStringLiteral("changed"));

    // Refused: the API stays unreachable and the pin is not replaced.
    const ApiResult wallet = getThrough(window, QStringLiteral("/api/v1/wallet"));
    QVERIFY(!wallet.ok());
    QCOMPARE(wallet.error->reason(), QStringLiteral("certificate_changed"));
    QCOMPARE(TlsPin::readPin(ini), unrelatedFingerprint());
}

void TestUiTls::backOfficeShowsTheFingerprint()
{
    QTemporaryDir dir;
    ApiClient api(m_server->baseUrl(), m_key.keyId, m_key.secret);
    api.setPinnedFingerprint(TlsPin::fingerprint(m_certificate));
    TerminalContext context(api, dir.filePath(QStringLiteral("terminal-preferences.ini")));
    SettingsPage page(context);
    page.resize(1156, 900);
    page.show();
    auto *label = page.findChild<QLabel *>(QStringLiteral("tlsFingerprint"));
    QVERIFY(label);
    QTRY_VERIFY_WITH_TIMEOUT(label->text().contains(TlsPin::fingerprint(m_certificate)), 15'000);
    QVERIFY(label->text().contains(QStringLiteral("encrypted (TLS)")));
    shoot(page, QStringLiteral("settings"));

    // A plain-HTTP server says it is not encrypted.
    TerminalFixture plain;
    SettingsPage plainPage(plain.context);
    plainPage.show();
    auto *plainLabel = plainPage.findChild<QLabel *>(QStringLiteral("tlsFingerprint"));
    QTRY_VERIFY_WITH_TIMEOUT(plainLabel->text().contains(QStringLiteral("not encrypted")), 15'000);
}

void TestUiTls::plainHttpToLanAddressShowsBanner_data()
{
    QTest::addColumn<QUrl>("server");
    QTest::addColumn<bool>("warned");
    QTest::newRow("http LAN address") << QUrl(QStringLiteral("http://192.0.2.10:8080")) << true;
    QTest::newRow("http host name") << QUrl(QStringLiteral("http://shop-server.lan:8080")) << true;
    QTest::newRow("http loopback") << QUrl(QStringLiteral("http://127.0.0.1:8080")) << false;
    QTest::newRow("http localhost") << QUrl(QStringLiteral("http://localhost:8080")) << false;
    QTest::newRow("https LAN address") << QUrl(QStringLiteral("https://192.0.2.10:8443")) << false;
}

void TestUiTls::plainHttpToLanAddressShowsBanner()
{
    QFETCH(QUrl, server);
    QFETCH(bool, warned);
    QTemporaryDir dir;
    MainWindow window(optionsFor(server, dir.path()));
    window.resize(1366, 768);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(banner(window));
    QCOMPARE(banner(window)->isVisible(), warned);
    if (warned) {
        QVERIFY(banner(window)->text().startsWith(QStringLiteral("Connection to the shop server is not encrypted")));
        shoot(window, QStringLiteral("banner"));
    }
}

QTEST_MAIN(TestUiTls)
#include "tst_ui_tls.moc"
