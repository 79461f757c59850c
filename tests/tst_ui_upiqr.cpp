// The UPI QR (ui/widgets/upiqrwidget.h, ui/widgets/qrcode.h), issue 28: what the screen and a receipt show is read
// back by a real QR decoder, zbarimg of Debian's zbar-tools, to exactly the payment link, Hindi payee names
// included; the code is level M, black on white whatever the theme, with a 4-module quiet zone and whole pixels
// per module, and at least 240 px.
#include "terminalfixture.h"
#include "upilink.h"
#include "widgets/qrcode.h"
#include "widgets/upiqrwidget.h"

#include <QImage>
#include <QLabel>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

/// What zbarimg reads in `image` (its --raw output without the line end); a failure message in *error.
QString decodeWithZbar(const QImage &image, QString *error)
{
    const QString zbarimg = QStandardPaths::findExecutable(QStringLiteral("zbarimg"));
    if (zbarimg.isEmpty()) {
        *error = QStringLiteral("zbarimg not found: install the Debian package zbar-tools "
                                "(packaging/install-deps.sh lists it among the test tools)");
        return {};
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("qr.png"));
    if (!image.save(path)) {
        *error = QStringLiteral("could not save ") + path;
        return {};
    }
    QProcess zbar;
    zbar.start(zbarimg, {QStringLiteral("--raw"), QStringLiteral("-q"), path});
    if (!zbar.waitForFinished(30000) || zbar.exitStatus() != QProcess::NormalExit || zbar.exitCode() != 0) {
        *error = QStringLiteral("zbarimg found no QR code (exit %1): %2")
                     .arg(zbar.exitCode())
                     .arg(QString::fromLocal8Bit(zbar.readAllStandardError()));
        return {};
    }
    QString text = QString::fromUtf8(zbar.readAllStandardOutput());
    if (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    return text;
}

/// The error correction level in `code`'s format information (ISO/IEC 18004 7.9): 'L', 'M', 'Q' or 'H'; '?' if the
/// bits read are not a valid BCH(15,5) format word.
char errorCorrectionLevel(const QrCode &code)
{
    // First copy, beside the top-left finder: bits 0-5 down column 8, 6-7 at rows 7-8, 8 at column 7, 9-14 along
    // row 8 from column 5 to column 0.
    int bits = 0;
    auto bit = [&](int index, int x, int y) { bits |= (code.isDark(x, y) ? 1 : 0) << index; };
    for (int i = 0; i <= 5; ++i)
        bit(i, 8, i);
    bit(6, 8, 7);
    bit(7, 8, 8);
    bit(8, 7, 8);
    for (int i = 9; i < 15; ++i)
        bit(i, 14 - i, 8);
    bits ^= 0x5412;
    const int data = bits >> 10;
    int remainder = data;
    for (int i = 0; i < 10; ++i)
        remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537);
    if (((data << 10) | remainder) != bits)
        return '?';
    return "MLHQ"[data >> 3];
}

/// True when every pixel of `image` is pure black or pure white.
bool onlyBlackAndWhite(const QImage &image)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < rgb.height(); ++y) {
        for (int x = 0; x < rgb.width(); ++x) {
            const QRgb p = rgb.pixel(x, y);
            if (p != qRgb(0, 0, 0) && p != qRgb(255, 255, 255))
                return false;
        }
    }
    return true;
}

const QString kHindiPayee = QStringLiteral("शर्मा मोबाइल एवं रिचार्ज");

} // namespace

class TestUiUpiQr final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(applyTerminalStyle());
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("zbarimg")).isEmpty(),
                 "zbarimg not found: install the Debian package zbar-tools (packaging/install-deps.sh)");
    }

    void receiptImageDecodes_data()
    {
        QTest::addColumn<QString>("link");
        QTest::addColumn<int>("side");
        const QString ascii =
            UpiLink::build(QStringLiteral("sharmamobile@okaxis"), QStringLiteral("Sharma Mobile & Sons"), 29900,
                           UpiLink::saleNote(QStringLiteral("9876543210"), QStringLiteral("RD-20240501-0007")));
        const QString hindi = UpiLink::build(QStringLiteral("9876543210@ybl"), kHindiPayee, 100000000,
                                             UpiLink::saleNote(QStringLiteral("9876543210"), QStringLiteral("RD-x")));
        QTest::newRow("ascii, 58 mm receipt (384 dots)") << ascii << 384;
        QTest::newRow("ascii, small") << ascii << 200;
        QTest::newRow("hindi payee, 80 mm receipt") << hindi << 512;
        QTest::newRow("hindi payee, odd size") << hindi << 333;
    }
    void receiptImageDecodes()
    {
        QFETCH(QString, link);
        QFETCH(int, side);
        QVERIFY(!link.isEmpty());
        UpiQrWidget widget;
        widget.setPayment(link, 29900, QStringLiteral("x"));
        const QImage image = widget.image(side);
        QCOMPARE(image.size(), QSize(side, side));
        QVERIFY(onlyBlackAndWhite(image));
        QString error;
        QCOMPARE(decodeWithZbar(image, &error), link);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    // The symbol: level M, a 4-module white quiet zone, whole pixels per module, centred in the image.
    void symbolGeometry()
    {
        const QString link = UpiLink::build(QStringLiteral("sharmamobile@okaxis"), kHindiPayee, 29900,
                                            QStringLiteral("Recharge 9876543210 ref RD-20240501-0007"));
        const QrCode code = QrCode::encode(link);
        QVERIFY(!code.isNull());
        QCOMPARE(errorCorrectionLevel(code), 'M');
        QCOMPARE(code.widthWithQuietZone(), code.width() + 8);
        const int side = 500;
        const int module = code.moduleSizeFor(side);
        QCOMPARE(module, side / code.widthWithQuietZone());
        QVERIFY(module >= 1);
        const QImage image = code.toImage(side).convertToFormat(QImage::Format_RGB32);
        const int offset = (side - module * code.widthWithQuietZone()) / 2;
        const int symbolStart = offset + QrCode::kQuietZone * module;
        const int symbolEnd = symbolStart + code.width() * module; // one past
        for (int y = 0; y < side; ++y) {
            for (int x = 0; x < side; ++x) {
                const bool inSymbol = x >= symbolStart && x < symbolEnd && y >= symbolStart && y < symbolEnd;
                const bool dark = image.pixel(x, y) == qRgb(0, 0, 0);
                const bool expected = inSymbol && code.isDark((x - symbolStart) / module, (y - symbolStart) / module);
                if (dark != expected)
                    QFAIL(qPrintable(QStringLiteral("pixel %1,%2 is %3")
                                         .arg(x)
                                         .arg(y)
                                         .arg(dark ? QLatin1String("dark") : QLatin1String("light"))));
            }
        }
        // The finder pattern's corner is dark: the symbol starts right after the quiet zone.
        QVERIFY(code.isDark(0, 0));
        // Too small for one pixel per module: no image rather than a wrong one.
        QVERIFY(code.toImage(code.widthWithQuietZone() - 1).isNull());
        QCOMPARE(code.toImage(code.widthWithQuietZone()).size(),
                 QSize(code.widthWithQuietZone(), code.widthWithQuietZone()));
    }

    void nothingToEncode()
    {
        QVERIFY(QrCode::encode(QString()).isNull());
        QVERIFY(QrCode::encode(QString(3000, QLatin1Char('x'))).isNull()); // more than version 40-M holds
        UpiQrWidget widget;
        widget.setPayment(QString(), 29900, QStringLiteral("Shop"));
        QVERIFY(!widget.hasCode());
        QVERIFY(widget.caption().isEmpty());
        QVERIFY(widget.image(300).isNull());
    }

    // On screen, under a dark theme: the code stays black on white, at least 240 px, grows with the widget, and
    // reads back to the link, Hindi payee included; the caption names the amount and the payee.
    void screenDecodes()
    {
        const QString link = UpiLink::build(QStringLiteral("sharma.mobile@okicici"), kHindiPayee, 29900,
                                            UpiLink::saleNote(QStringLiteral("9876543210"), QStringLiteral("RD-7")));
        QWidget window;
        window.setAttribute(Qt::WA_StyledBackground, true);
        window.setStyleSheet(QStringLiteral("QWidget { background: #101828; color: white; }"));
        auto *widget = new UpiQrWidget(&window);
        widget->setPayment(link, 29900, kHindiPayee);
        QCOMPARE(widget->text(), link);
        QVERIFY(widget->hasCode());
        QCOMPARE(widget->caption(), QStringLiteral("₹299.00 to ") + kHindiPayee);
        QVERIFY(widget->minimumCodeSide() >= UpiQrWidget::kMinimumCodePixels);

        auto *canvas = widget->findChild<QWidget *>(QStringLiteral("upiQrCode"));
        QVERIFY(canvas);
        const QrCode code = QrCode::encode(link);
        // The least size keeps the symbol itself (quiet zone not counted) at 240 px or more.
        const int leastModule = canvas->minimumSizeHint().width() / code.widthWithQuietZone();
        QCOMPARE(canvas->minimumSizeHint().width() % code.widthWithQuietZone(), 0);
        QVERIFY(leastModule * code.width() >= UpiQrWidget::kMinimumCodePixels);

        window.resize(widget->minimumSizeHint().width(), widget->minimumSizeHint().height());
        widget->resize(window.size());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY(canvas->width() >= leastModule * code.widthWithQuietZone());
        QImage shot = canvas->grab().toImage();
        QString error;
        QCOMPARE(decodeWithZbar(shot, &error), link);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(shot.convertToFormat(QImage::Format_RGB32).pixel(1, 1), qRgb(255, 255, 255));
        window.grab().save(QStringLiteral("/tmp/i28/shots/upiqr_small_dark_theme.png"));

        // Grows with the widget, still whole pixels per module.
        window.resize(700, 800);
        widget->resize(window.size());
        QTRY_VERIFY(canvas->height() > 600);
        shot = canvas->grab().toImage();
        QVERIFY(code.moduleSizeFor(qMin(canvas->width(), canvas->height())) > leastModule);
        QCOMPARE(decodeWithZbar(shot, &error), link);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        window.grab().save(QStringLiteral("/tmp/i28/shots/upiqr_large_dark_theme.png"));

        widget->clear();
        QVERIFY(!widget->hasCode());
        QVERIFY(!canvas->isVisible());
    }
};

QTEST_MAIN(TestUiUpiQr)
#include "tst_ui_upiqr.moc"
