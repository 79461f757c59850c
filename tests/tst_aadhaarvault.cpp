#include "aadhaar/aadhaarvault.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <optional>
#include <sys/stat.h>
#include <utility>

class TestAadhaarVault : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void roundTrip_data();
    void roundTrip();
    void sealUsesFreshNonce();
    void wrongAssociatedDataFails();
    void flippedByteFails_data();
    void flippedByteFails();
    void truncatedInputFails_data();
    void truncatedInputFails();
    void createsOwnerOnlyKeyFileAndDirectory();
    void reopenedKeyFileGivesSameKey();
    void otherKeyFileCannotUnseal();
    void accessibleByGroupOrOthersRefused_data();
    void accessibleByGroupOrOthersRefused();
    void wrongSizeRefused_data();
    void wrongSizeRefused();
    void symlinkAndDirectoryRefused();
    void failureWithoutErrorPointer();
    void mask_data();
    void mask();
    void keyedHashSeparatesPurposesAndValues();
    void keyedHashStableAcrossInstances();
    void constantTimeEquals_data();
    void constantTimeEquals();
    void moveTransfersKey();

private:
    QString keyPath(const QString &name = QStringLiteral("aadhaar.key")) const;
    AadhaarVault open(const QString &path);
    void writeFile(const QString &path, const QByteArray &bytes, QFileDevice::Permissions permissions);

    std::optional<QTemporaryDir> m_dir;
};

QString TestAadhaarVault::keyPath(const QString &name) const
{
    return m_dir->filePath(QStringLiteral("keys/") + name);
}

AadhaarVault TestAadhaarVault::open(const QString &path)
{
    QString error;
    std::optional<AadhaarVault> vault = AadhaarVault::openOrCreate(path, &error);
    if (!vault)
        qFatal("cannot open vault %s: %s", qPrintable(path), qPrintable(error));
    return std::move(*vault);
}

void TestAadhaarVault::writeFile(const QString &path, const QByteArray &bytes, QFileDevice::Permissions permissions)
{
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.setPermissions(permissions));
    QCOMPARE(file.write(bytes), bytes.size());
}

void TestAadhaarVault::init()
{
    m_dir.emplace();
    QVERIFY(m_dir->isValid());
}

void TestAadhaarVault::cleanup()
{
    m_dir.reset();
}

void TestAadhaarVault::roundTrip_data()
{
    QTest::addColumn<QString>("number");
    QTest::addColumn<QByteArray>("associatedData");

    QTest::newRow("twelve digits") << QStringLiteral("234567890124") << QByteArray("txn_01HZX3");
    QTest::newRow("with spaces") << QStringLiteral("2345 6789 0124") << QByteArray("42");
    QTest::newRow("empty AD") << QStringLiteral("999941057058") << QByteArray();
    QTest::newRow("empty number") << QString() << QByteArray("txn");
}

void TestAadhaarVault::roundTrip()
{
    QFETCH(QString, number);
    QFETCH(QByteArray, associatedData);

    const AadhaarVault vault = open(keyPath());
    const QByteArray sealed = vault.seal(number, associatedData);
    QCOMPARE(sealed.size(), number.toUtf8().size() + AadhaarVault::SealOverhead);
    QVERIFY(!sealed.contains(number.toUtf8()) || number.isEmpty());
    QCOMPARE(vault.unseal(sealed, associatedData), std::optional<QString>(number));
}

void TestAadhaarVault::sealUsesFreshNonce()
{
    const AadhaarVault vault = open(keyPath());
    const QByteArray a = vault.seal(QStringLiteral("234567890124"), "t1");
    const QByteArray b = vault.seal(QStringLiteral("234567890124"), "t1");
    QVERIFY(a != b);
    QCOMPARE(vault.unseal(b, "t1"), std::optional<QString>(QStringLiteral("234567890124")));
}

void TestAadhaarVault::wrongAssociatedDataFails()
{
    const AadhaarVault vault = open(keyPath());
    const QByteArray sealed = vault.seal(QStringLiteral("234567890124"), "txn_1");
    QCOMPARE(vault.unseal(sealed, "txn_2"), std::nullopt);
    QCOMPARE(vault.unseal(sealed, QByteArray()), std::nullopt);
}

void TestAadhaarVault::flippedByteFails_data()
{
    QTest::addColumn<int>("position");

    QTest::newRow("nonce start") << 0;
    QTest::newRow("nonce end") << 23;
    QTest::newRow("ciphertext") << 30;
    QTest::newRow("tag end") << -1;
}

void TestAadhaarVault::flippedByteFails()
{
    QFETCH(int, position);

    const AadhaarVault vault = open(keyPath());
    QByteArray sealed = vault.seal(QStringLiteral("234567890124"), "txn_1");
    const qsizetype index = position >= 0 ? position : sealed.size() + position;
    sealed[index] = char(sealed.at(index) ^ 0x01);
    QCOMPARE(vault.unseal(sealed, "txn_1"), std::nullopt);
}

void TestAadhaarVault::truncatedInputFails_data()
{
    QTest::addColumn<int>("keep");

    QTest::newRow("empty") << 0;
    QTest::newRow("nonce only") << 24;
    QTest::newRow("one short of overhead") << int(AadhaarVault::SealOverhead - 1);
    QTest::newRow("one byte short") << -1;
}

void TestAadhaarVault::truncatedInputFails()
{
    QFETCH(int, keep);

    const AadhaarVault vault = open(keyPath());
    const QByteArray sealed = vault.seal(QStringLiteral("234567890124"), "txn_1");
    const qsizetype length = keep >= 0 ? keep : sealed.size() + keep;
    QCOMPARE(vault.unseal(sealed.left(length), "txn_1"), std::nullopt);
}

void TestAadhaarVault::createsOwnerOnlyKeyFileAndDirectory()
{
    const QString path = keyPath();
    QVERIFY(!QFileInfo::exists(path));
    open(path);

    struct stat fileStatus = {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &fileStatus), 0);
    QCOMPARE(fileStatus.st_mode & 07777, 0600u);
    QCOMPARE(fileStatus.st_size, off_t(AadhaarVault::KeySize));
    QCOMPARE(QFileInfo(path).permissions() & ~(QFileDevice::ReadUser | QFileDevice::WriteUser),
             QFileDevice::ReadOwner | QFileDevice::WriteOwner);

    struct stat dirStatus = {};
    QCOMPARE(::stat(QFile::encodeName(QFileInfo(path).absolutePath()).constData(), &dirStatus), 0);
    QCOMPARE(dirStatus.st_mode & 07777, 0700u);
}

void TestAadhaarVault::reopenedKeyFileGivesSameKey()
{
    const QString path = keyPath();
    QByteArray sealed;
    {
        const AadhaarVault first = open(path);
        sealed = first.seal(QStringLiteral("234567890124"), "txn_9");
    }
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray keyBefore = file.readAll();
    file.close();

    const AadhaarVault second = open(path);
    QCOMPARE(second.unseal(sealed, "txn_9"), std::optional<QString>(QStringLiteral("234567890124")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), keyBefore);
}

void TestAadhaarVault::otherKeyFileCannotUnseal()
{
    const AadhaarVault first = open(keyPath(QStringLiteral("one.key")));
    const AadhaarVault second = open(keyPath(QStringLiteral("two.key")));
    QCOMPARE(second.unseal(first.seal(QStringLiteral("234567890124"), "t"), "t"), std::nullopt);
}

void TestAadhaarVault::accessibleByGroupOrOthersRefused_data()
{
    QTest::addColumn<int>("permissions");

    QTest::newRow("0640 group read") << int(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup);
    QTest::newRow("0604 others read") << int(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther);
    QTest::newRow("0620 group write") << int(QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                             QFileDevice::WriteGroup);
    QTest::newRow("0644") << int(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup |
                                 QFileDevice::ReadOther);
}

void TestAadhaarVault::accessibleByGroupOrOthersRefused()
{
    QFETCH(int, permissions);

    const QString path = keyPath();
    writeFile(path, QByteArray(int(AadhaarVault::KeySize), '\x5a'), QFileDevice::Permissions::fromInt(permissions));
    QString error;
    QVERIFY(!AadhaarVault::openOrCreate(path, &error).has_value());
    QVERIFY2(error.contains(QStringLiteral("group or others")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("chmod 600")), qPrintable(error));
}

void TestAadhaarVault::wrongSizeRefused_data()
{
    QTest::addColumn<int>("size");

    QTest::newRow("empty") << 0;
    QTest::newRow("31 bytes") << 31;
    QTest::newRow("33 bytes") << 33;
    QTest::newRow("64 bytes") << 64;
}

void TestAadhaarVault::wrongSizeRefused()
{
    QFETCH(int, size);

    const QString path = keyPath();
    writeFile(path, QByteArray(size, '\x5a'), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QString error;
    QVERIFY(!AadhaarVault::openOrCreate(path, &error).has_value());
    QVERIFY2(error.contains(QStringLiteral("wrong size")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("expected 32")), qPrintable(error));
    QCOMPARE(QFileInfo(path).size(), qint64(size)); // never overwritten
}

void TestAadhaarVault::symlinkAndDirectoryRefused()
{
    const QString target = keyPath(QStringLiteral("real.key"));
    open(target);
    const QString link = keyPath(QStringLiteral("link.key"));
    QVERIFY(QFile::link(target, link));
    QString error;
    QVERIFY(!AadhaarVault::openOrCreate(link, &error).has_value());
    QVERIFY2(error.contains(QStringLiteral("symbolic link")), qPrintable(error));

    const QString directory = keyPath(QStringLiteral("dir.key"));
    QVERIFY(QDir().mkpath(directory));
    error.clear();
    QVERIFY(!AadhaarVault::openOrCreate(directory, &error).has_value());
    QVERIFY2(!error.isEmpty(), "no error text");
    QVERIFY(!AadhaarVault::openOrCreate(QString(), &error).has_value());
}

void TestAadhaarVault::failureWithoutErrorPointer()
{
    const QString path = keyPath();
    writeFile(path, QByteArray(3, 'x'), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QVERIFY(!AadhaarVault::openOrCreate(path, nullptr).has_value());
}

void TestAadhaarVault::mask_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");

    QTest::newRow("twelve digits") << QStringLiteral("234567891234") << QStringLiteral("XXXX XXXX 1234");
    QTest::newRow("grouped") << QStringLiteral("2345 6789 0124") << QStringLiteral("XXXX XXXX 0124");
    QTest::newRow("dashes") << QStringLiteral("2345-6789-0124") << QStringLiteral("XXXX XXXX 0124");
    QTest::newRow("trailing space") << QStringLiteral("234567890124 ") << QStringLiteral("XXXX XXXX 0124");
    QTest::newRow("exactly four") << QStringLiteral("9876") << QStringLiteral("XXXX XXXX 9876");
    QTest::newRow("digits split by space") << QStringLiteral("12 34") << QStringLiteral("XXXX XXXX 1234");
    QTest::newRow("three digits") << QStringLiteral("123") << QStringLiteral("XXXX XXXX XXXX");
    QTest::newRow("four letters") << QStringLiteral("abcd") << QStringLiteral("XXXX XXXX XXXX");
    QTest::newRow("empty") << QString() << QStringLiteral("XXXX XXXX XXXX");
    QTest::newRow("already masked") << QStringLiteral("XXXX XXXX 5678") << QStringLiteral("XXXX XXXX 5678");
    QTest::newRow("non-ASCII digits ignored")
        << QStringLiteral("12\u0967\u0968\u0969\u096a") << QStringLiteral("XXXX XXXX XXXX");
}

void TestAadhaarVault::mask()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);

    QCOMPARE(AadhaarVault::mask(input), expected);
}

void TestAadhaarVault::keyedHashSeparatesPurposesAndValues()
{
    const AadhaarVault vault = open(keyPath());
    const QByteArray otp = vault.keyedHash("otp", "123456");
    QCOMPARE(otp.size(), AadhaarVault::HashSize);
    QCOMPARE(vault.keyedHash("otp", "123456"), otp);
    QVERIFY(vault.keyedHash("captcha", "123456") != otp);
    QVERIFY(vault.keyedHash("otp", "123457") != otp);
    QVERIFY(vault.keyedHash("ab", "c") != vault.keyedHash("a", "bc")); // the 0x00 separator keeps fields apart
    QVERIFY(vault.keyedHash("otp", "") != vault.keyedHash("otp", QByteArrayView("\0", 1)));
}

void TestAadhaarVault::keyedHashStableAcrossInstances()
{
    const QString path = keyPath();
    QByteArray first;
    {
        first = open(path).keyedHash("otp", "654321");
    }
    QCOMPARE(open(path).keyedHash("otp", "654321"), first);
    QVERIFY(open(keyPath(QStringLiteral("other.key"))).keyedHash("otp", "654321") != first);
}

void TestAadhaarVault::constantTimeEquals_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");
    QTest::addColumn<bool>("equal");

    QTest::newRow("same") << QByteArray("abcdef") << QByteArray("abcdef") << true;
    QTest::newRow("last byte differs") << QByteArray("abcdef") << QByteArray("abcdeg") << false;
    QTest::newRow("first byte differs") << QByteArray("abcdef") << QByteArray("xbcdef") << false;
    QTest::newRow("prefix") << QByteArray("abc") << QByteArray("abcdef") << false;
    QTest::newRow("both empty") << QByteArray() << QByteArray() << false;
    QTest::newRow("one empty") << QByteArray() << QByteArray("a") << false;
}

void TestAadhaarVault::constantTimeEquals()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);
    QFETCH(bool, equal);

    QCOMPARE(AadhaarVault::constantTimeEquals(a, b), equal);
    QCOMPARE(AadhaarVault::constantTimeEquals(b, a), equal);
}

void TestAadhaarVault::moveTransfersKey()
{
    AadhaarVault original = open(keyPath());
    const QByteArray sealed = original.seal(QStringLiteral("234567890124"), "t");
    const QByteArray hash = original.keyedHash("otp", "111111");

    AadhaarVault moved(std::move(original));
    QCOMPARE(moved.unseal(sealed, "t"), std::optional<QString>(QStringLiteral("234567890124")));
    QCOMPARE(moved.keyedHash("otp", "111111"), hash);

    // The moved-from vault holds no key and says so instead of using a zero key.
    QVERIFY(original.seal(QStringLiteral("234567890124"), "t").isEmpty()); // NOLINT(bugprone-use-after-move)
    QVERIFY(original.keyedHash("otp", "111111").isEmpty());
    QCOMPARE(original.unseal(sealed, "t"), std::nullopt);

    AadhaarVault assigned = open(keyPath(QStringLiteral("other.key")));
    assigned = std::move(moved);
    QCOMPARE(assigned.unseal(sealed, "t"), std::optional<QString>(QStringLiteral("234567890124")));
}

QTEST_GUILESS_MAIN(TestAadhaarVault)
#include "tst_aadhaarvault.moc"
