// The cash drawer's pulse (ui/receipts/cashdrawer.h), issue 28: the exact ESC/POS bytes reach a device path (a file
// here) or a raw CUPS queue through `lp` (a stand-in lp on PATH here), without blocking; a missing device, a refused
// queue and a missing lp each give a clear message; nothing happens when no drawer is set.
#include "receipts/cashdrawer.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(cannot read)");
}

bool writeFile(const QString &path, const QByteArray &bytes, bool executable = false)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return false;
    file.close();
    return !executable || file.setPermissions(file.permissions() | QFile::ExeOwner);
}

} // namespace

class TestCashDrawer final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QByteArray m_path; ///< PATH when the suite started

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = qgetenv("PATH");
    }
    void cleanup() { qputenv("PATH", m_path); }

    void pulseBytes() { QCOMPARE(CashDrawer::pulseCommand(), QByteArray::fromHex("1b700019fa")); }

    void offWhenNotSet()
    {
        CashDrawer drawer(QStringLiteral("  "));
        QVERIFY(!drawer.isEnabled());
        QSignalSpy opened(&drawer, &CashDrawer::opened);
        QSignalSpy failed(&drawer, &CashDrawer::failed);
        QVERIFY(!drawer.open());
        QCoreApplication::processEvents();
        QCOMPARE(opened.count() + failed.count(), 0);
    }

    void writesToDevice()
    {
        const QString device = m_dir.filePath(QStringLiteral("lp0"));
        QVERIFY(writeFile(device, {}));
        CashDrawer drawer(device);
        QSignalSpy opened(&drawer, &CashDrawer::opened);
        QSignalSpy failed(&drawer, &CashDrawer::failed);
        QVERIFY(drawer.open());
        QCOMPARE(opened.count(), 0); // never inside the call
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(readAll(device), QByteArray::fromHex("1b700019fa"));
        // A second opening sends the pulse again.
        QVERIFY(drawer.open());
        QTRY_COMPARE(opened.count(), 2);
        QCOMPARE(readAll(device), QByteArray::fromHex("1b700019fa1b700019fa"));
    }

    void missingDevice()
    {
        const QString device = m_dir.filePath(QStringLiteral("usb/lp7"));
        CashDrawer drawer(device);
        QSignalSpy opened(&drawer, &CashDrawer::opened);
        QSignalSpy failed(&drawer, &CashDrawer::failed);
        QVERIFY(drawer.open());
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(opened.count(), 0);
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains(device) && message.contains(QLatin1String("does not exist")), qPrintable(message));
        QVERIFY(!QFile::exists(device)); // never created
    }

    void folderIsNoDevice()
    {
        const QString folder = m_dir.filePath(QStringLiteral("folder"));
        QVERIFY(QDir().mkpath(folder));
        CashDrawer drawer(folder);
        QSignalSpy opened(&drawer, &CashDrawer::opened);
        QSignalSpy failed(&drawer, &CashDrawer::failed);
        QVERIFY(drawer.open());
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(opened.count(), 0);
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains(folder) && message.contains(QLatin1String("directory"), Qt::CaseInsensitive),
                 qPrintable(message));
    }

    void sendsToQueue()
    {
        const QString bin = m_dir.filePath(QStringLiteral("bin-ok"));
        QVERIFY(QDir().mkpath(bin));
        const QString args = m_dir.filePath(QStringLiteral("lp-args"));
        const QString data = m_dir.filePath(QStringLiteral("lp-data"));
        QVERIFY(writeFile(
            bin + QStringLiteral("/lp"),
            QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$@\" > '%1'\ncat > '%2'\n").arg(args, data).toUtf8(), true));
        qputenv("PATH", QFile::encodeName(bin) + ':' + m_path);
        CashDrawer drawer(QStringLiteral("Receipt_80mm"));
        QSignalSpy opened(&drawer, &CashDrawer::opened);
        QSignalSpy failed(&drawer, &CashDrawer::failed);
        QVERIFY(drawer.open());
        QTRY_COMPARE(opened.count() + failed.count(), 1);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
        QCOMPARE(readAll(args), QByteArray("-d\nReceipt_80mm\n-o\nraw\n"));
        QCOMPARE(readAll(data), QByteArray::fromHex("1b700019fa"));
    }

    void queueRefused()
    {
        const QString bin = m_dir.filePath(QStringLiteral("bin-refuses"));
        QVERIFY(QDir().mkpath(bin));
        QVERIFY(writeFile(bin + QStringLiteral("/lp"),
                          "#!/bin/sh\ncat > /dev/null\necho 'lp: The printer or class does not exist.' >&2\nexit 1\n",
                          true));
        qputenv("PATH", QFile::encodeName(bin) + ':' + m_path);
        CashDrawer drawer(QStringLiteral("NoSuchQueue"));
        QSignalSpy opened(&drawer, &CashDrawer::opened);
        QSignalSpy failed(&drawer, &CashDrawer::failed);
        QVERIFY(drawer.open());
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(opened.count(), 0);
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains(QLatin1String("NoSuchQueue")) &&
                     message.contains(QLatin1String("The printer or class does not exist")),
                 qPrintable(message));
    }

    void lpMissing()
    {
        const QString empty = m_dir.filePath(QStringLiteral("bin-empty"));
        QVERIFY(QDir().mkpath(empty));
        qputenv("PATH", QFile::encodeName(empty));
        CashDrawer drawer(QStringLiteral("Receipt_80mm"));
        QSignalSpy failed(&drawer, &CashDrawer::failed);
        QVERIFY(drawer.open());
        QTRY_COMPARE(failed.count(), 1);
        QVERIFY2(failed.at(0).at(0).toString().contains(QLatin1String("cups-client")),
                 qPrintable(failed.at(0).at(0).toString()));
    }

    void checkTarget_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("usable");
        QTest::newRow("off") << QString() << true;
        QTest::newRow("usb device") << QStringLiteral("/dev/usb/lp0") << true;
        QTest::newRow("parallel device") << QStringLiteral("/dev/lp0") << true;
        QTest::newRow("queue") << QStringLiteral("TVS_RP3160") << true;
        QTest::newRow("queue with dot and hyphen") << QStringLiteral("receipt-80.mm") << true;
        QTest::newRow("an option, not a queue") << QStringLiteral("-o") << false;
        QTest::newRow("blank inside") << QStringLiteral("Receipt printer") << false;
        QTest::newRow("relative path") << QStringLiteral("dev/usb/lp0") << false;
        QTest::newRow("hash") << QStringLiteral("queue#1") << false;
        QTest::newRow("non-ASCII") << QStringLiteral("रसीद") << false;
    }
    void checkTarget()
    {
        QFETCH(QString, target);
        QFETCH(bool, usable);
        QCOMPARE(CashDrawer::checkTarget(target).isEmpty(), usable);
    }

    void badQueueNameIsReported()
    {
        CashDrawer drawer(QStringLiteral("-d"));
        QSignalSpy failed(&drawer, &CashDrawer::failed);
        QVERIFY(drawer.open());
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(failed.at(0).at(0).toString(), CashDrawer::checkTarget(QStringLiteral("-d")));
    }
};

QTEST_GUILESS_MAIN(TestCashDrawer)
#include "tst_cashdrawer.moc"
